import { createRequire } from 'node:module';
import { BodyTooLarge, installPlatform, type CorePlatform } from './core/platform.js';
import { newPet, pet, pets } from 'virtual:petstore-mock/openapi-validators';

/** Ajv's 2020 draft class, required (CommonJS) when first needed: the mock's validators and verify's answer checks share it. */
export function requireAjv(): typeof import('ajv/dist/2020.js').Ajv2020 {
  return (createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020;
}

/**
 * The core's platform services on Node: the validators generated at build time, as the browser
 * build's are (scripts/browser-validators.mjs: no request waits for a schema to compile, and the
 * server never loads Ajv), and zlib.
 */
export const nodePlatform: CorePlatform = {
  loadValidators: () => ({ newPet, pet, pets }),
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

installPlatform(nodePlatform);
