import { closeSync, openSync, readSync } from 'node:fs';
import { BodyTooLarge, installPlatform, type CorePlatform } from './core/platform.js';

/** Ajv's 2020 draft class, required (CommonJS) when first needed: the mock's validators and verify's answer checks share it. */
export function requireAjv(): typeof import('ajv/dist/2020.js').Ajv2020 {
  const { createRequire } = process.getBuiltinModule('node:module');
  return (createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020;
}

/** The core's platform services on Node: zlib, and random bytes from /dev/urandom. */
export const nodePlatform: CorePlatform = {
  randomBytes,
  decompress: (encoding, body, maxBytes) => {
    const options = { maxOutputLength: maxBytes };
    // zlib is loaded on the first compressed body: most clients never send one, and start-up is shorter without it.
    const { brotliDecompressSync, gunzipSync, inflateSync } = process.getBuiltinModule('node:zlib');
    try {
      if (encoding === 'gzip') return gunzipSync(body, options);
      if (encoding === 'deflate') return inflateSync(body, options);
      return brotliDecompressSync(body, options);
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new BodyTooLarge();
      throw error;
    }
  },
};

/**
 * Random bytes from /dev/urandom, through node:fs, which every start has loaded already: Web
 * Crypto's first use (the key ids' salt of every mock) took 2–3 ms of a start. Where there is no
 * /dev/urandom, Web Crypto's.
 */
function randomBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(n);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      if (readSync(fd, bytes, 0, n, null) === n) return bytes;
    } finally {
      closeSync(fd);
    }
  } catch {
    // No /dev/urandom here (Windows): Web Crypto below.
  }
  return globalThis.crypto.getRandomValues(bytes);
}

installPlatform(nodePlatform);
