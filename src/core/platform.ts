import { named } from './errors.js';

/**
 * What the core needs from the platform it runs on and cannot import itself without tying it to
 * Node: decompression and a source of random bytes. Node's entry points install `nodePlatform`
 * (src/node-platform.ts); a browser build installs its own.
 */
export interface CorePlatform {
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
