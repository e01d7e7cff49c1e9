// The library on a shared state: startMock({ state }) and createSharedFetchHandler, their async
// session controls, and a scenario file loaded on one instance used by name on another.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, startMock, type SharedFetchHandler, type SharedRunningMock } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();
const AUTH = { authorization: 'Bearer demo-pro' };

describe.skipIf(!run)('the library with a shared state', () => {
  it('createFetchHandler({ state }) on an unreachable Redis answers 503 state_unavailable and ready() says why', async () => {
    const url = `redis://127.0.0.1:${redis.port + 1}/0`;
    const lost = createFetchHandler({ state: url });
    await expect(lost.ready()).rejects.toThrow(`cannot reach the shared state at ${url}`);
    const res = await lost(new Request('http://mock/v1/pets', { headers: AUTH }));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(((await res.json()) as { code: string }).code).toBe('state_unavailable');
    await lost.close();
  });

  let redis: TestRedis;
  let mock: SharedRunningMock;
  let handler: SharedFetchHandler;

  beforeAll(async () => {
    redis = await TestRedis.start();
    mock = await startMock({ state: redis.url, statePrefix: 'lib' });
    handler = createFetchHandler({ state: redis.url, statePrefix: 'lib' });
    await handler.ready();
  });
  afterAll(async () => {
    await mock?.close();
    await handler?.close();
    await redis?.stop();
  });

  it('refuses a statePrefix that would break the hash tag, naming the option', async () => {
    await expect(startMock({ state: redis.url, statePrefix: 'a}{b' })).rejects.toThrow('the option "statePrefix" must be 1 to 64 letters');
  });

  it('refuses options that cannot work with a shared state, naming both, as the CLI does', async () => {
    const unsafe = { state: redis.url, statePrefix: 'lib' } as Record<string, unknown>;
    await expect(startMock({ ...unsafe, watch: true } as never)).rejects.toThrow('the option "watch" cannot be used with "state"');
    await expect(startMock({ ...unsafe, now: () => T0 } as never)).rejects.toThrow('the option "now" cannot be used with "state"');
    expect(() => createFetchHandler({ ...unsafe, now: () => T0 } as never)).toThrow('the option "now" cannot be used with "state"');
  });

  it('clock.set reads strings as strictly as in memory, and recordDetails is there too', async () => {
    const w = mock.session('strict');
    await expect(w.clock.set('December 5, 2030')).rejects.toThrow('clock.set needs a valid Date');
    await w.clock.freeze();
    await w.clock.set('2026-12-05T00:00:00Z');
    expect((await w.clock.now()).toISOString()).toBe('2026-12-05T00:00:00.000Z');
    await w.recordDetails();
    await fetch(`${mock.url}/pets/1`, { headers: { ...AUTH, 'x-mock-session': 'strict' } });
    expect((await w.requests({ details: true }))[0]?.details?.response.body).toContain('"id":1');
  });

  it('session controls wait for Redis and act on every instance: clock, requests, reset', async () => {
    await mock.clock.freeze();
    await mock.clock.set(T0);
    await handler.clock.advance('90s');
    expect(await mock.clock.state()).toEqual({ now: new Date(T0 + 90_000).toISOString(), frozen: true });
    expect((await mock.clock.now()).getTime()).toBe(T0 + 90_000);
    const res = await handler(
      new Request('http://mock/v1/pets', { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"name":"Fetch","categoryId":2}' }),
    );
    expect(res.status).toBe(201);
    const got = await fetch(`${mock.url}/pets/51`, { headers: AUTH });
    expect(await got.json()).toEqual({ id: 51, name: 'Fetch', categoryId: 2 });
    expect((await mock.requests()).map((e) => [e.method, e.status, e.at])).toEqual([
      ['POST', 201, new Date(T0 + 90_000).toISOString()],
      ['GET', 200, new Date(T0 + 90_000).toISOString()],
    ]);
    await handler.reset();
    expect(await mock.requests()).toEqual([]);
    expect((await fetch(`${mock.url}/pets/51`, { headers: AUTH })).status).toBe(404);
  });

  it('a scenario file used on one instance is known by name to another, by its contents', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-mock-'));
    const file = join(dir, 'only-gets-fail.yaml');
    writeFileSync(file, 'description: every get fails\nsteps:\n  - match: { operation: getPet }\n    times: 100\n    answer: { status: 500 }\n');
    await handler.session('w1').useScenario(file);
    const res = await fetch(`${mock.url}/pets/1`, { headers: { ...AUTH, 'x-mock-session': 'w1' } });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { message: string }).message).toContain('scenario only-gets-fail, step 1 (1 of 100)');
    const scenario = (await (await fetch(`${mock.origin}/__admin/scenario`, { headers: { 'x-mock-session': 'w1' } })).json()) as { name: string };
    expect(scenario.name).toBe('only-gets-fail');
  });

  it('har(): the journal of the shared state as HAR 1.2, with the details the session records, on the server origin', async () => {
    const session = { 'content-type': 'application/json', 'x-mock-session': 'har' };
    expect((await fetch(`${mock.origin}/__admin/journal`, { method: 'PUT', headers: session, body: '{"details":true}' })).status).toBe(200);
    const res = await fetch(`${mock.url}/pets?limit=1`, { headers: { ...AUTH, 'x-mock-session': 'har' } });
    const body = await res.text();
    const har = await mock.session('har').har({ status: '2xx' });
    expect(har.log.entries.map((e) => [e.request.url, e.response.status, e.response.content.text])).toEqual([[`${mock.url}/pets?limit=1`, 200, body]]);
    expect((await handler.session('har').har()).log.entries[0]?.request.url).toBe('http://localhost/v1/pets?limit=1');
  });
});
