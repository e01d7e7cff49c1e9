import { named } from './errors.js';
import type { OpenApiValidators } from './input/openapi-ajv.js';

/**
 * What the core needs from the platform it runs on and cannot import itself without tying it to
 * Node: the schema validators (made on the first body that needs them, so start-up does not pay
 * for them) and decompression. Node's entry points install `nodePlatform` (src/node-platform.ts);
 * a browser build installs its own.
 */
export interface CorePlatform {
  /**
   * The validators of the OpenAPI document's schemas, made synchronously on first use: generated
   * at build time on Node and in the browser (scripts/browser-validators.mjs), so no request waits
   * for a compile and a page needs no `'unsafe-eval'`, which a strict Content-Security-Policy refuses.
   */
  loadValidators(): OpenApiValidators;
  /**
   * Inflates a gzip, deflate or br body to at most `maxBytes`; throws `BodyTooLarge` past that.
   * Absent where the platform cannot decompress synchronously: compressed bodies are then refused.
   */
  decompress?: (encoding: 'gzip' | 'deflate' | 'br', body: Uint8Array, maxBytes: number) => Uint8Array;
  /** `n` random bytes fit for a secret, where the platform has a cheaper source than Web Crypto's. */
  randomBytes?: (n: number) => Uint8Array;
}

/** Thrown by `decompress` when the inflated body would pass its limit. */
export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

let installed: CorePlatform | undefined;

/** Installs the platform services the core uses; the entry points call it once. */
export function installPlatform(platform: CorePlatform): void {
  installed = platform;
}

/** The installed platform services; a missing install is a bug in an entry point. */
export function platform(): CorePlatform {
  if (!installed) throw new Error(named('no platform installed; import the library through its entry point (petstore-mock or petstore-mock/browser).'));
  return installed;
}
