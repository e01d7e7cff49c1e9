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
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"', ' application/json ; charset=utf8'])(
    'accepts the media type %j',
    (type) => {
      expect(readJsonBody({ 'content-type': type }, pet, false).value).toEqual({ name: 'Rex', categoryId: 3 });
    },
  );

  it.each(['application/json; charset=latin1', 'application/jsonx', 'text/json', 'application/json; charset=utf-16'])(
    'refuses the media type %j with 415',
    (type) => {
      expect(codeOf(() => readJsonBody({ 'content-type': type }, pet, false))).toBe('unsupported_media_type');
    },
  );

  it.each([
    ['identity', pet],
    ['gzip', gzipSync(pet)],
    ['x-gzip', gzipSync(pet)],
    ['deflate', deflateSync(pet)],
    ['br', brotliCompressSync(pet)],
    ['identity, gzip', gzipSync(pet)],
    ['gzip, identity', gzipSync(pet)],
    ['GZIP ,, Identity', gzipSync(pet)],
    ['gzip, br', brotliCompressSync(gzipSync(pet))],
    ['br, deflate, gzip', gzipSync(deflateSync(brotliCompressSync(pet)))],
    ['identity, identity', pet],
    ['', pet],
  ])('reads a body with Content-Encoding %j, undoing the codings from the last listed', (encoding, bytes) => {
    expect(readJsonBody({ ...json, 'content-encoding': encoding }, bytes, false).value).toEqual({ name: 'Rex', categoryId: 3 });
  });

  it.each([
    ['no type with a body', {}, pet, false, 'unsupported_media_type'],
    ['no type and no body', {}, Buffer.alloc(0), false, 'missing_body'],
    ['json type and no body', json, null, false, 'missing_body'],
    ['an unknown encoding', { ...json, 'content-encoding': 'zstd' }, pet, false, 'unsupported_media_type'],
    ['an unknown encoding in a list', { ...json, 'content-encoding': 'gzip, zstd' }, gzipSync(pet), false, 'unsupported_media_type'],
    ['an unknown encoding after identity', { ...json, 'content-encoding': 'identity, compress' }, pet, false, 'unsupported_media_type'],
    [
      'more than three compressions',
      { ...json, 'content-encoding': 'gzip, gzip, gzip, gzip' },
      gzipSync(gzipSync(gzipSync(gzipSync(pet)))),
      false,
      'unsupported_media_type',
    ],
    ['a list in the wrong order', { ...json, 'content-encoding': 'br, gzip' }, brotliCompressSync(gzipSync(pet)), false, 'invalid_json'],
    ['an unknown encoding even when too large', { ...json, 'content-encoding': 'identity, zstd' }, Buffer.alloc(0), true, 'unsupported_media_type'],
    ['a broken gzip stream', { ...json, 'content-encoding': 'gzip' }, Buffer.from('not gzip'), false, 'invalid_json'],
    ['a body the adapter cut at the limit', json, Buffer.alloc(0), true, 'payload_too_large'],
    ['a wrong type even when too large', { 'content-type': 'text/plain' }, Buffer.alloc(0), true, 'unsupported_media_type'],
    [
      'a gzip body that inflates past 1 MiB',
      { ...json, 'content-encoding': 'gzip' },
      gzipSync(Buffer.alloc(MAX_BODY_BYTES + 1, 0x20)),
      false,
      'payload_too_large',
    ],
  ])('refuses %s', (_what, headers, body, tooLarge, code) => {
    expect(codeOf(() => readJsonBody(headers, body, tooLarge))).toBe(code);
  });

  it('limits every layer of a list to 1 MiB: a gzip inside a gzip that inflates past it is 413', () => {
    const inner = gzipSync(Buffer.alloc(MAX_BODY_BYTES + 1, 0x20));
    expect(codeOf(() => readJsonBody({ ...json, 'content-encoding': 'gzip, gzip' }, gzipSync(inner), false))).toBe('payload_too_large');
  });

  it('accepts a body of exactly 1 MiB after decompression', () => {
    const padded = Buffer.concat([Buffer.from('{"name":"Rex","categoryId":3}'), Buffer.alloc(MAX_BODY_BYTES - pet.length, 0x20)]);
    expect(padded.length).toBe(MAX_BODY_BYTES);
    expect(codeOf(() => readJsonBody({ ...json, 'content-encoding': 'gzip' }, gzipSync(padded), false))).toBe('ok');
  });
});
