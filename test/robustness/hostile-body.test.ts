import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { useMock } from '../support/mock.js';

const { call, fresh } = useMock();
beforeEach(fresh);

const MiB = 1024 * 1024;
const valid = '{"name":"Rex","categoryId":3}';
const bytes = (...parts: (string | number[])[]): Buffer => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
/** A valid NewPet body whose serialised length is exactly `size` bytes (white space fills it: strings are capped). */
const sized = (size: number): string => `${valid}${' '.repeat(size - valid.length)}`;
const bomb = (size: number): Buffer => Buffer.from(`{"name":"${'a'.repeat(size)}","categoryId":1}`);
const deep = (n: number): string => `{"name":"a","categoryId":1,"x":${'['.repeat(n)}${']'.repeat(n)}}`;

type Case = [what: string, body: string | Buffer, headers: Record<string, string>, status: number, code: string | null];
const json = { 'content-type': 'application/json' };

const cases: Case[] = [
  // Syntax
  ['malformed JSON', '{name: "Rex"}', json, 400, 'invalid_json'],
  ['truncated JSON', '{"name":"Rex","categoryId":', json, 400, 'invalid_json'],
  ['truncated string', '{"name":"Re', json, 400, 'invalid_json'],
  ['trailing comma', '{"name":"Rex","categoryId":3,}', json, 400, 'invalid_json'],
  ['text after the value', `${valid} {}`, json, 400, 'invalid_json'],
  ['a comment', `${valid} // hi`, json, 400, 'invalid_json'],
  ['NaN', '{"name":"Rex","categoryId":NaN}', json, 400, 'invalid_json'],
  ['single quotes', "{'name':'Rex','categoryId':3}", json, 400, 'invalid_json'],
  ['a raw control character in a string', '{"name":"R\u0001x","categoryId":3}', json, 400, 'invalid_json'],
  ['a bad escape', '{"name":"R\\x41","categoryId":3}', json, 400, 'invalid_json'],
  ['only white space', '   \n ', json, 400, 'invalid_json'],
  ['an empty body', '', json, 400, 'missing_body'],
  // JSON that is not an object
  ['JSON null', 'null', json, 400, 'invalid_body'],
  ['a JSON string', '"Rex"', json, 400, 'invalid_body'],
  ['a JSON number', '42', json, 400, 'invalid_body'],
  ['JSON true', 'true', json, 400, 'invalid_body'],
  ['a JSON array', '[]', json, 400, 'invalid_body'],
  ['an array of one valid animal', `[${valid}]`, json, 400, 'invalid_body'],
  // Keys
  ['duplicate keys', '{"name":"A","name":"B","categoryId":1}', json, 400, 'invalid_json'],
  ['a __proto__ key', '{"__proto__":{"polluted":"yes"},"name":"A","categoryId":1}', json, 400, 'invalid_json'],
  ['a nested __proto__ key', '{"name":"A","categoryId":1,"x":{"__proto__":{"polluted":"yes"}}}', json, 400, 'invalid_json'],
  ['an escaped __proto__ key', '{"\\u005f_proto__":{"polluted":"yes"},"name":"A","categoryId":1}', json, 400, 'invalid_json'],
  ['constructor.prototype keys', '{"constructor":{"prototype":{"polluted":"yes"}},"name":"A","categoryId":1}', json, 400, 'invalid_json'],
  ['an inherited name as a key', '{"name":"A","categoryId":1,"toString":"x"}', json, 400, 'invalid_body'],
  ['an id in the body', '{"id":1,"name":"A","categoryId":1}', json, 400, 'invalid_body'],
  // Depth
  ['nesting 64 levels deep', `{"name":"a","categoryId":1,"x":${'['.repeat(62)}${']'.repeat(62)}}`, json, 400, 'invalid_body'],
  ['nesting 5,000 deep in arrays', deep(5000), json, 400, 'invalid_json'],
  ['nesting 100,000 deep in objects', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`, json, 400, 'invalid_json'],
  // Encoding
  ['invalid UTF-8', bytes('{"name":"', [0xff, 0xfe], '","categoryId":1}'), json, 400, 'invalid_json'],
  ['an overlong UTF-8 sequence', bytes('{"name":"', [0xc0, 0xaf], '","categoryId":1}'), json, 400, 'invalid_json'],
  ['a UTF-8 surrogate', bytes('{"name":"', [0xed, 0xa0, 0x80], '","categoryId":1}'), json, 400, 'invalid_json'],
  ['a truncated UTF-8 sequence', bytes('{"name":"', [0xe2, 0x82], '","categoryId":1}'), json, 400, 'invalid_json'],
  ['a leading byte order mark', bytes([0xef, 0xbb, 0xbf], valid), json, 400, 'invalid_json'],
  ['UTF-16', Buffer.from(valid, 'utf16le'), json, 400, 'invalid_json'],
  ['multi-byte UTF-8 in a name', '{"name":"Ñandú 🐈","categoryId":1}', json, 201, null],
  // Content-Type
  ['no Content-Type', Buffer.from(valid), {}, 415, 'unsupported_media_type'],
  ['text/plain', valid, { 'content-type': 'text/plain' }, 415, 'unsupported_media_type'],
  ['a form', 'name=Rex&categoryId=3', { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'unsupported_media_type'],
  ['multipart', valid, { 'content-type': 'multipart/form-data; boundary=x' }, 415, 'unsupported_media_type'],
  ['application/jsonp', valid, { 'content-type': 'application/jsonp' }, 415, 'unsupported_media_type'],
  ['a +json suffix type', valid, { 'content-type': 'application/problem+json' }, 415, 'unsupported_media_type'],
  ['charset latin1', valid, { 'content-type': 'application/json; charset=latin1' }, 415, 'unsupported_media_type'],
  ['charset utf-16', valid, { 'content-type': 'application/json; charset=utf-16' }, 415, 'unsupported_media_type'],
  ['an empty charset', valid, { 'content-type': 'application/json; charset=' }, 415, 'unsupported_media_type'],
  ['charset UTF-8', valid, { 'content-type': 'application/json; charset=UTF-8' }, 201, null],
  ['charset utf8, quoted', valid, { 'content-type': 'application/json;charset="utf8"' }, 201, null],
  ['an unknown parameter', valid, { 'content-type': 'application/json; version=1' }, 201, null],
  ['upper-case type', valid, { 'content-type': 'APPLICATION/JSON' }, 201, null],
  // Size and compression
  ['exactly 1 MiB', sized(MiB), json, 201, null],
  ['1 MiB and one byte', sized(MiB + 1), json, 413, 'payload_too_large'],
  ['5 MiB', sized(5 * MiB), json, 413, 'payload_too_large'],
  ['a gzip bomb (2 MiB inflated)', gzipSync(bomb(2 * MiB)), { ...json, 'content-encoding': 'gzip' }, 413, 'payload_too_large'],
  ['a gzip bomb (64 MiB inflated)', gzipSync(bomb(64 * MiB)), { ...json, 'content-encoding': 'gzip' }, 413, 'payload_too_large'],
  ['a deflate bomb', deflateSync(bomb(2 * MiB)), { ...json, 'content-encoding': 'deflate' }, 413, 'payload_too_large'],
  ['a brotli bomb', brotliCompressSync(bomb(2 * MiB)), { ...json, 'content-encoding': 'br' }, 413, 'payload_too_large'],
  ['gzip', gzipSync(valid), { ...json, 'content-encoding': 'gzip' }, 201, null],
  ['corrupt gzip', Buffer.from('not gzip at all'), { ...json, 'content-encoding': 'gzip' }, 400, 'invalid_json'],
  ['truncated gzip', gzipSync(valid).subarray(0, 12), { ...json, 'content-encoding': 'gzip' }, 400, 'invalid_json'],
  ['an unknown Content-Encoding', valid, { ...json, 'content-encoding': 'compress' }, 415, 'unsupported_media_type'],
  // Values
  ['categoryId as a string', '{"name":"A","categoryId":"3"}', json, 400, 'invalid_body'],
  ['categoryId 1.5', '{"name":"A","categoryId":1.5}', json, 400, 'invalid_body'],
  ['categoryId 2^63 (past int64)', '{"name":"A","categoryId":9223372036854775808}', json, 400, 'invalid_body'],
  ['categoryId -2^63-1 (past int64)', '{"name":"A","categoryId":-9223372036854775809}', json, 400, 'invalid_body'],
  ['categoryId 1e30', '{"name":"A","categoryId":1e30}', json, 400, 'invalid_body'],
  ['categoryId 1e400', '{"name":"A","categoryId":1e400}', json, 400, 'invalid_json'],
  ['categoryId with 10,000 digits', `{"name":"A","categoryId":${'9'.repeat(10_000)}}`, json, 400, 'invalid_json'],
  // Shape limits (docs/limits.md)
  ['categoryId with 1,000,000 digits', `{"name":"A","categoryId":${'9'.repeat(1_000_000)}}`, json, 400, 'invalid_json'],
  ['a number of 101 characters', `{"name":"A","categoryId":1.${'0'.repeat(99)}}`, json, 400, 'invalid_json'],
  ['a number of 100 characters', `{"name":"A","categoryId":1.${'0'.repeat(98)}}`, json, 201, null],
  ['a name of 1,000 characters', `{"name":"${'n'.repeat(1000)}","categoryId":1}`, json, 201, null],
  ['a name of 1,001 characters', `{"name":"${'n'.repeat(1001)}","categoryId":1}`, json, 400, 'invalid_json'],
  ['a name of 1,001 escaped characters', `{"name":"${'\\u0041'.repeat(1001)}","categoryId":1}`, json, 400, 'invalid_json'],
  ['an object of 101 keys', `{"name":"A","categoryId":1,"x":{${Array.from({ length: 101 }, (_, i) => `"k${i}":1`).join(',')}}}`, json, 400, 'invalid_json'],
  ['an array of 1,001 items', `{"name":"A","categoryId":1,"x":[${Array(1001).fill(0).join(',')}]}`, json, 400, 'invalid_json'],
  [
    'an array of 1,000 items (past the schema, within the limits)',
    `{"name":"A","categoryId":1,"x":[${Array(1000).fill(0).join(',')}]}`,
    json,
    400,
    'invalid_body',
  ],
  ['categoryId 1e-400 (a double rounds it to 0)', '{"name":"A","categoryId":1e-400}', json, 400, 'invalid_body'],
  ['categoryId 2^53 + 0.5 (a double rounds it to an integer)', '{"name":"A","categoryId":9007199254740993.5}', json, 400, 'invalid_body'],
  ['categoryId 1.0000000000000000001', '{"name":"A","categoryId":1.0000000000000000001}', json, 400, 'invalid_body'],
  ['categoryId 1.0 (an integer written with a fraction)', '{"name":"A","categoryId":1.0}', json, 201, null],
  ['name null', '{"name":null,"categoryId":1}', json, 400, 'invalid_body'],
  ['name missing', '{"categoryId":1}', json, 400, 'invalid_body'],
  ['status in the wrong case', '{"name":"A","categoryId":1,"status":"Sold"}', json, 400, 'invalid_body'],
  ['status null', '{"name":"A","categoryId":1,"status":null}', json, 400, 'invalid_body'],
];

describe('hostile request bodies on POST /v1/pets', () => {
  it.each(cases)('%s', async (_what, body, headers, status, code) => {
    const res = await call('/v1/pets', { method: 'POST', headers, body });
    expect(res.status).toBe(status);
    if (code === null) expect(res.json).toEqual(expect.objectContaining({ id: expect.any(Number) }));
    else expect(res.json).toEqual(expect.objectContaining({ code, status, message: expect.any(String) }));
  });

  it.each([
    ['9007199254740993', '2^53 + 1'],
    ['9223372036854775807', 'the largest int64'],
    ['-9223372036854775808', 'the smallest int64'],
    ['12345678901234567890e-1', 'an exponent that leaves an integer past 2^53'],
  ])('keeps categoryId %s (%s) exact in the answer and in the store', async (literal) => {
    const created = await call('/v1/pets', { method: 'POST', headers: json, body: `{"name":"Big","categoryId":${literal}}` });
    expect(created.status).toBe(201);
    const exact = BigInt(literal.includes('e') ? literal.replace(/0e-1$/, '') : literal).toString();
    expect(created.text).toBe(`{"id":${created.json.id},"name":"Big","categoryId":${exact}}`);
    expect((await call(`/v1/pets/${created.json.id}`)).text).toContain(`"categoryId":${exact}}`);
    // The default store leaves room on the largest page, so the list shows the new animal too.
    expect((await call('/v1/pets?limit=100')).text).toContain(`{"id":${created.json.id},"name":"Big","categoryId":${exact}}`);
  });

  it('names every offending field of a schema-breaking body', async () => {
    const res = await call('/v1/pets', { method: 'POST', headers: json, body: '{"name":1,"categoryId":"x","status":"lost","extra":true}' });
    expect(res.status).toBe(400);
    expect(res.json.details.map((d: { field: string }) => d.field).sort()).toEqual(['categoryId', 'extra', 'name', 'status']);
  });

  it.each([
    [
      '60,000 keys',
      `{"name":"a","categoryId":1,${Array.from({ length: 60_000 }, (_, i) => `"k${i}":1`).join(',')}}`,
      'an object has more than 100 keys (at character 802)',
    ],
    ['a 100,000-character field name', `{"name":"a","categoryId":1,"${'x'.repeat(100_000)}":1}`, 'a string is longer than 1000 characters (at character 28)'],
    ['a 1,000,000-digit categoryId', `{"name":"A","categoryId":${'9'.repeat(1_000_000)}}`, 'a number is longer than 100 characters (at character 26)'],
  ])('refuses %s before any costly work, saying which limit and where', async (_what, body, says) => {
    const res = await call('/v1/pets', { method: 'POST', headers: json, body });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_json');
    expect(res.json.message).toContain(`The body is past a limit of petstore-mock: ${says}`);
    expect(res.text.length).toBeLessThan(400);
  });

  it('stores nothing for a refused body', async () => {
    const key = 'demo-enterprise';
    const before = (await call('/v1/pets?limit=100', { key })).json.length;
    for (const [, body, headers, status] of cases) {
      if (status !== 201) expect((await call('/v1/pets', { method: 'POST', headers, body, key })).status).toBe(status);
    }
    const created = await call('/v1/pets', { method: 'POST', headers: json, body: valid, key });
    // Ids follow the seeded ones directly: no refused body took an id.
    expect(created.json.id).toBe(51);
    expect((await call('/v1/pets?limit=100', { key })).json.length).toBe(before + 1);
  });
});

afterAll(() => {
  // No body above may have reached a prototype, here in the process that served it.
  const probe: Record<string, unknown> = {};
  expect(probe.polluted).toBeUndefined();
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  expect((Object as unknown as Record<string, unknown>).polluted).toBeUndefined();
});
