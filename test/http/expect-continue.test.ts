import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, useMock } from '../support/mock.js';
import { expectContinue } from '../support/raw.js';

const { mock, fresh } = useMock({ keys: ['once:free:1:100'] });
beforeEach(fresh);

const pet = Buffer.from('{"name":"Rex","categoryId":3}');

function head(target: string, lines: string[], length: number, method = 'POST'): string {
  return `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.map((l) => `${l}\r\n`).join('')}Content-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;
}

const KEY = 'Authorization: Bearer demo-free';
const JSON_TYPE = 'Content-Type: application/json';
const MiB = 1024 * 1024;

describe('Expect: 100-continue, on a raw socket', () => {
  it.each([
    ['no key', '/v1/pets', [JSON_TYPE], pet.length, 401, 'missing_api_key'],
    ['a wrong key', '/v1/pets', ['Authorization: Bearer nope', JSON_TYPE], pet.length, 401, 'invalid_api_key'],
    ['text/plain', '/v1/pets', [KEY, 'Content-Type: text/plain'], pet.length, 415, 'unsupported_media_type'],
    ['a charset other than UTF-8', '/v1/pets', [KEY, 'Content-Type: application/json; charset=latin1'], pet.length, 415, 'unsupported_media_type'],
    ['a Content-Length past 1 MiB', '/v1/pets', [KEY, JSON_TYPE], 2 * MiB, 413, 'payload_too_large'],
    [
      'a Content-Length past 1 MiB and text/plain (the type is checked first)',
      '/v1/pets',
      [KEY, 'Content-Type: text/plain'],
      2 * MiB,
      415,
      'unsupported_media_type',
    ],
    ['a Content-Length past 1 MiB and no key (auth is checked first)', '/v1/pets', [JSON_TYPE], 2 * MiB, 401, 'missing_api_key'],
    ['an unknown Content-Encoding in a list', '/v1/pets', [KEY, JSON_TYPE, 'Content-Encoding: identity, zstd'], pet.length, 415, 'unsupported_media_type'],
    ['an unknown path', '/v1/nope', [KEY, JSON_TYPE], pet.length, 404, 'route_not_found'],
    ['a method the path does not answer', '/v1/pets/1', [KEY, JSON_TYPE], pet.length, 405, 'method_not_allowed'],
    ['a store-order path', '/v1/store/orders', [KEY, JSON_TYPE], pet.length, 501, 'not_implemented'],
  ])('%s: the final answer comes at once, without 100 Continue, and the connection closes', async (_what, target, lines, length, status, code) => {
    const before = mock().requests().length;
    const { continued, reply, uploaded } = await expectContinue(mock(), head(target, lines, length), pet);
    expect([continued, uploaded]).toEqual([false, 0]);
    expect([reply.status, reply.json?.code]).toEqual([status, code]);
    expect(reply.headers.connection).toBe('close');
    expect(reply.headers['x-ratelimit-limit']).toBeDefined();
    // Answered once, journalled once.
    expect(mock().requests().length).toBe(before + 1);
  });

  it('a key that is rate limited gets its 429 before uploading, counted as any refusal', async () => {
    expect((await call(mock(), '/v1/pets?limit=1', { key: 'once' })).status).toBe(200);
    const { continued, reply } = await expectContinue(mock(), head('/v1/pets', ['Authorization: Bearer once', JSON_TYPE], pet.length), pet);
    expect(continued).toBe(false);
    expect([reply.status, reply.json.code, reply.headers['retry-after']]).toEqual([429, 'rate_limited', '60']);
  });

  it.each([
    ['a valid animal', [KEY, JSON_TYPE], pet, 201, undefined],
    ['a gzip body under an identity, gzip list', [KEY, JSON_TYPE, 'Content-Encoding: identity, gzip'], gzipSync(pet), 201, undefined],
    ['invalid JSON (only the body tells)', [KEY, JSON_TYPE], Buffer.from('{"name":'), 400, 'invalid_json'],
    ['a body without Content-Type (the check needs to know there is a body)', [KEY], pet, 415, 'unsupported_media_type'],
  ])('%s: 100 Continue, then the body is read and answered as usual', async (_what, lines, body, status, code) => {
    const { continued, reply, uploaded } = await expectContinue(mock(), head('/v1/pets', lines, body.length), body);
    expect([continued, uploaded]).toEqual([true, body.length]);
    expect([reply.status, reply.json?.code]).toEqual([status, code]);
    expect(reply.headers.connection).not.toBe('close');
  });

  it('the admin API continues as before', async () => {
    const body = Buffer.from('{"advance":"1s"}');
    const { continued, reply } = await expectContinue(mock(), head('/__admin/clock', [JSON_TYPE], body.length), body);
    expect([continued, reply.status]).toEqual([true, 200]);
  });
});
