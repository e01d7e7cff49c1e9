import { newPet, pet, pets } from 'virtual:petstore-mock/openapi-validators';
import type { CorePlatform } from '../core/platform.js';

/**
 * The core's platform services in a page: validators generated at build time (no code is compiled
 * in the page, so a Content-Security-Policy without 'unsafe-eval' is fine), and no decompression,
 * since the browser has none that is synchronous: compressed request bodies are refused with 415.
 */
export const browserPlatform: CorePlatform = {
  loadValidators: () => ({ newPet, pet, pets }),
};
