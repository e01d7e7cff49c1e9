import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_INSTANT_MS, VirtualClock } from '../../src/core/state/clock.js';
import { adminCall, type AdminInit, type AdminReply, type ClockJson } from '../support/admin.js';
import { call, useMock } from '../support/mock.js';

const { mock, fresh } = useMock();
beforeEach(fresh);

function admin<T = unknown>(path: string, init: AdminInit = {}): Promise<AdminReply<T>> {
  return adminCall<T>(mock().origin, path, init);
}

const json = { 'content-type': 'application/json' };

describe('hostile input to the admin API', () => {
  it.each([
    ['a body over 64 KiB', { headers: json, body: JSON.stringify({ advance: 'x'.repeat(100_000) }) }, 413, 'payload_too_large'],
    ['a gzip bomb', { headers: { ...json, 'content-encoding': 'gzip' }, body: gzipSync(`{"a":"${'a'.repeat(10_000_000)}"}`) }, 413, 'payload_too_large'],
    ['nesting 50,000 deep', { headers: json, body: `${'['.repeat(50_000)}${']'.repeat(50_000)}` }, 413, 'payload_too_large'],
    ['nesting 5,000 deep', { headers: json, body: `{"advance":${'['.repeat(5_000)}${']'.repeat(5_000)}}` }, 400, 'admin_invalid_request'],
    ['a latin1 charset', { headers: { 'content-type': 'application/json; charset=latin1' }, body: '{}' }, 415, 'unsupported_media_type'],
    ['an unknown Content-Encoding', { headers: { ...json, 'content-encoding': 'compress' }, body: '{}' }, 415, 'unsupported_media_type'],
    ['malformed JSON', { headers: json, body: '{"advance":' }, 400, 'admin_invalid_request'],
    ['a __proto__ key', { headers: json, body: '{"__proto__":{"polluted":1},"advance":"1s"}' }, 400, 'admin_invalid_request'],
    ['an advance past the last date', { headers: json, body: '{"advance":"99999999999999999999d"}' }, 400, 'admin_invalid_request'],
    ['a numeric advance of 1e308 ms', { headers: json, body: '{"advance":1e308}' }, 400, 'admin_invalid_request'],
    ['a set past the last date', { headers: json, body: '{"set":"+275760-09-13T00:00:00.001Z"}' }, 400, 'admin_invalid_request'],
    ['a set to the last date plus an advance', { headers: json, body: '{"set":"+275760-09-13T00:00:00.000Z","advance":"1s"}' }, 400, 'admin_invalid_request'],
  ])('POST /__admin/clock with %s -> %i %s, and the clock is untouched', async (_what, init, status, code) => {
    const before = (await admin('clock')).json;
    const res = await admin('clock', { method: 'POST', ...init });
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ code, message: expect.stringMatching(/^petstore-mock: /), status });
    expect((await admin('clock')).json).toEqual(before);
    expect((await call(mock(), '/v1/pets?limit=1')).status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('the clock can go to the last instant a date holds, and the API still answers there', async () => {
    const res = await admin<ClockJson>('clock', { method: 'POST', headers: json, body: '{"set":"+275760-09-13T00:00:00.000Z"}' });
    expect(res.status).toBe(200);
    expect(res.json.now).toBe('+275760-09-13T00:00:00.000Z');
    const api = await call(mock(), '/v1/pets?limit=1');
    expect(api.status).toBe(200);
    expect(mock().requests().at(-1)?.at).toBe('+275760-09-13T00:00:00.000Z');
  });
});

describe('the clock refuses instants no date can hold', () => {
  it.each([MAX_INSTANT_MS + 1, -MAX_INSTANT_MS - 1, Number.NaN, Infinity])('set(%d) throws a RangeError and leaves the clock where it was', (ms) => {
    const clock = new VirtualClock(() => 1_000);
    clock.freeze();
    expect(() => clock.set(ms)).toThrow(/^petstore-mock: the clock cannot be set/);
    expect(clock.now()).toBe(1_000);
  });

  it('the library clock says so too, and the server goes on answering', async () => {
    expect(() => mock().clock.advance(2 * MAX_INSTANT_MS)).toThrow(RangeError);
    expect((await call(mock(), '/v1/pets?limit=1')).status).toBe(200);
  });

  it('a running clock set to the last instant never runs past it', () => {
    let real = 0;
    const clock = new VirtualClock(() => real);
    clock.set(MAX_INSTANT_MS);
    real += 5_000;
    expect(clock.now()).toBe(MAX_INSTANT_MS);
    expect(() => new Date(clock.now()).toISOString()).not.toThrow();
  });
});

describe('a bug in the core', () => {
  it('becomes a 500 with the Error body, and the server answers the next request', async () => {
    const engine = mock().engine;
    const original = engine.handle;
    engine.handle = () => {
      throw new Error('injected fault');
    };
    try {
      const res = await fetch(`${mock().url}/pets`);
      expect(res.status).toBe(500);
      const body = (await res.json()) as { message: string };
      expect(body).toEqual({ code: 'internal_error', message: expect.stringContaining('injected fault'), status: 500 });
      // The message says where to report the bug: the package's own issue tracker.
      expect(body.message).toContain(
        `please report it at ${(JSON.parse(readFileSync('package.json', 'utf8')) as { bugs: { url: string } }).bugs.url} with the request`,
      );
    } finally {
      engine.handle = original;
    }
    expect((await call(mock(), '/v1/pets?limit=1')).status).toBe(200);
  });
});
