import type { Ajv2020 } from 'ajv/dist/2020.js';
import { named } from './errors.js';

/**
 * What the core needs from the platform it runs on and cannot import itself without tying it to
 * Node: the validator library (loaded on the first body that needs it, so start-up does not pay
 * for it) and decompression. Node's entry points install `nodePlatform` (src/node-platform.ts);
 * a browser build installs its own.
 */
export interface CorePlatform {
  /** Ajv's JSON Schema 2020-12 class, loaded synchronously on first use. */
  loadAjv(): typeof Ajv2020;
  /**
   * Inflates a gzip, deflate or br body to at most `maxBytes`; throws `BodyTooLarge` past that.
   * Absent where the platform cannot decompress synchronously: compressed bodies are then refused.
   */
  decompress?: (encoding: 'gzip' | 'deflate' | 'br', body: Uint8Array, maxBytes: number) => Uint8Array;
}

/** Thrown by `decompress` when the inflated body would pass its limit. */
export class BodyTooLarge extends Error {}

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
