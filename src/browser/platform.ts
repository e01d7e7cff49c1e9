import type { CorePlatform } from '../core/platform.js';

/**
 * The core's platform services in a page: none. There is no synchronous decompression in a
 * browser, so compressed request bodies are refused with 415, and Web Crypto gives random bytes.
 */
export const browserPlatform: CorePlatform = {};
