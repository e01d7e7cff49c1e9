import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, readJsonBody } from '../../src/core/input/body.js';
import { MockError } from '../../src/core/errors.js';

const pet = Buffer.from('{"name":"Rex","categoryId":3}');
const json = { 'content-type': 'application/json' };

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof MockError) return error.code;
    throw error;
  }
  return 'ok';
}

describe('readJsonBody', () => {
  it.each([
    ['identity', pet],
    ['gzip', gzipSync(pet)],
    ['x-gzip', gzipSync(pet)],
    ['deflate', deflateSync(pet)],
    ['br', brotliCompressSync(pet)],
  ])('reads a %s body', (encoding, bytes) => {
    expect(readJsonBody({ ...json, 'content-encoding': encoding }, bytes, false).value).toEqual({ name: 'Rex', categoryId: 3 });
  });

  it.each([
    ['no type with a body', {}, pet, false, 'unsupported_media_type'],
    ['no type and no body', {}, Buffer.alloc(0), false, 'missing_body'],
    ['json type and no body', json, null, false, 'missing_body'],
    ['an unknown encoding', { ...json, 'content-encoding': 'zstd' }, pet, false, 'unsupported_media_type'],
    ['a broken gzip stream', { ...json, 'content-encoding': 'gzip' }, Buffer.from('not gzip'), false, 'invalid_json'],
    ['a body the adapter cut at the limit', json, Buffer.alloc(0), true, 'payload_too_large'],
    ['a wrong type even when too large', { 'content-type': 'text/plain' }, Buffer.alloc(0), true, 'unsupported_media_type'],
    ['a gzip body that inflates past 1 MiB', { ...json, 'content-encoding': 'gzip' }, gzipSync(Buffer.alloc(MAX_BODY_BYTES + 1, 0x20)), false, 'payload_too_large'],
  ])('refuses %s', (_what, headers, body, tooLarge, code) => {
    expect(codeOf(() => readJsonBody(headers, body, tooLarge))).toBe(code);
  });

  it('accepts a body of exactly 1 MiB after decompression', () => {
    const padded = Buffer.concat([Buffer.from('{"name":"Rex","categoryId":3}'), Buffer.alloc(MAX_BODY_BYTES - pet.length, 0x20)]);
    expect(padded.length).toBe(MAX_BODY_BYTES);
    expect(codeOf(() => readJsonBody({ ...json, 'content-encoding': 'gzip' }, gzipSync(padded), false))).toBe('ok');
  });
});
