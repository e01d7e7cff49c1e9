import { request } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import type { RunningMock } from '../../src/index.js';
import { T0, call, post } from '../support/mock.js';
import { fakeTime, startWithTime, writeScenario } from '../support/replay.js';
import { at } from '../support/checked.js';

const T0s = T0 / 1000;
/** Where the window-dependent shipped scenarios start their clock, whatever the wall clock says. */
const WINDOW_START_S = Date.UTC(2026, 0, 1) / 1000;
const seconds = (headers: Headers, name: string): number => Number(headers.get(name));

async function statuses(mock: RunningMock, n: number, key = 'demo-free'): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call(mock, '/v1/pets?limit=1', { key })).status);
  return out;
}

describe('each shipped scenario, replayed over HTTP with the clock advanced', () => {
  it('default: the specification with the real clock', async () => {
    const time = fakeTime(T0 + 1234);
    const mock = await startWithTime(time, { scenario: 'default' });
    const list = await call(mock, '/v1/pets');
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(20);
    expect(mock.clock.state()).toEqual({ now: new Date(T0 + 1234).toISOString(), frozen: false });
    time.ms += 5000;
    expect(mock.clock.now().getTime()).toBe(T0 + 6234);
  });

  it('empty-store: no animals until one is created; a reset empties it again', async () => {
    const mock = await startWithTime(fakeTime(T0), { scenario: 'empty-store' });
    expect((await call(mock, '/v1/pets')).json).toEqual([]);
    expect((await call(mock, '/v1/pets?status=available')).json).toEqual([]);
    expect((await call(mock, '/v1/pets/1')).json.code).toBe('pet_not_found');
    const created = await call(mock, '/v1/pets', post({ name: 'First', categoryId: 1 }));
    expect(created.json).toEqual({ id: 1, name: 'First', categoryId: 1 });
    expect((await call(mock, '/v1/pets')).json).toEqual([{ id: 1, name: 'First', categoryId: 1 }]);
    mock.reset();
    expect((await call(mock, '/v1/pets')).json).toEqual([]);
  });

  it('rate-limit-minute: 429 with Retry-After for a whole minute from its window start, then normal', async () => {
    const mock = await startWithTime(fakeTime(T0 + 30_000), { scenario: 'rate-limit-minute' });
    for (const [key, limit] of [
      ['demo-free', 60],
      ['demo-pro', 300],
      ['demo-business', 1000],
      ['demo-enterprise', 5000],
    ] as const) {
      const refused = await call(mock, '/v1/pets', { key });
      expect(refused.status).toBe(429);
      expect(refused.json.code).toBe('rate_limited');
      expect(refused.headers.get('x-ratelimit-limit')).toBe(String(limit));
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(seconds(refused.headers, 'x-ratelimit-reset')).toBe(WINDOW_START_S + 60);
      expect(seconds(refused.headers, 'retry-after')).toBe(60);
    }
    mock.clock.advance('59s');
    expect((await call(mock, '/v1/pets')).headers.get('retry-after')).toBe('1');
    mock.clock.advance('1s');
    const after = await call(mock, '/v1/pets');
    expect(after.status).toBe(200);
    expect(after.headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('rate-limit-day: 429 for a whole UTC day from its start, until the next midnight', async () => {
    const mock = await startWithTime(fakeTime(T0), { scenario: 'rate-limit-day' });
    const midnight = WINDOW_START_S + 86_400;
    const refused = await call(mock, '/v1/pets', { key: 'demo-pro' });
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe('rate_limited');
    expect(refused.json.message).toContain('per-day');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('10000');
    expect(seconds(refused.headers, 'x-ratelimit-reset')).toBe(midnight);
    expect(seconds(refused.headers, 'retry-after')).toBe(86_400);
    mock.clock.advance('2h');
    expect((await call(mock, '/v1/pets', { key: 'demo-pro' })).status).toBe(429);
    mock.clock.set(midnight * 1000);
    const next = await call(mock, '/v1/pets', { key: 'demo-pro' });
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-limit')).toBe('300');
  });

  it('ban: from 200 to 429 to a temporary ban and back', async () => {
    const mock = await startWithTime(fakeTime(T0), { scenario: 'ban' });
    expect(await statuses(mock, 5)).toEqual([200, 200, 200, 200, 200]);
    const limited = await call(mock, '/v1/pets?limit=1');
    expect([limited.status, limited.json.code, limited.headers.get('x-ratelimit-limit')]).toEqual([429, 'rate_limited', '5']);
    // The first 8 refusals of the wait (this one and 7 more) are taken for requests already in flight.
    expect(await statuses(mock, 7)).toEqual([429, 429, 429, 429, 429, 429, 429]);
    mock.clock.advance('2s');
    expect(await statuses(mock, 3)).toEqual([429, 429, 429]);
    const banned = await call(mock, '/v1/pets?limit=1');
    expect([banned.status, banned.json.code]).toEqual([429, 'key_banned']);
    expect(seconds(banned.headers, 'retry-after')).toBe(120);
    expect(seconds(banned.headers, 'x-ratelimit-reset')).toBe(WINDOW_START_S + 122);
    mock.clock.advance('61s');
    const still = await call(mock, '/v1/pets?limit=1');
    expect([still.json.code, seconds(still.headers, 'retry-after')]).toEqual(['key_banned', 59]);
    expect((await call(mock, '/v1/pets?limit=1', { key: 'demo-pro' })).status).toBe(200);
    mock.clock.advance('59s');
    expect(await statuses(mock, 5)).toEqual([200, 200, 200, 200, 200]);
    expect((await call(mock, '/v1/pets?limit=1')).json.code).toBe('rate_limited');
  });

  it('banned: demo-free is banned from the start for 5 minutes; the other keys work', async () => {
    const mock = await startWithTime(fakeTime(T0), { scenario: 'banned' });
    const refused = await call(mock, '/v1/pets');
    expect([refused.status, refused.json.code, seconds(refused.headers, 'retry-after')]).toEqual([429, 'key_banned', 300]);
    expect((await call(mock, '/v1/pets', { key: 'demo-pro' })).status).toBe(200);
    mock.clock.advance('5m');
    expect((await call(mock, '/v1/pets')).status).toBe(200);
  });

  it('revoked-key: demo-free answers 401 revoked_api_key; the other keys work', async () => {
    const mock = await startWithTime(fakeTime(T0), { scenario: 'revoked-key' });
    const refused = await call(mock, '/v1/pets');
    expect([refused.status, refused.json.code]).toEqual([401, 'revoked_api_key']);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="petstore", error="invalid_token"');
    expect((await call(mock, '/v1/pets/1', { key: 'demo-business' })).status).toBe(200);
  });

  it('removal-eve: the deprecated endpoint works until one advance later it answers 410', async () => {
    const time = fakeTime(T0);
    const mock = await startWithTime(time, { scenario: 'removal-eve' });
    expect(mock.clock.state()).toEqual({ now: '2030-12-04T23:59:00.000Z', frozen: true });
    time.ms += 3_600_000;
    const eve = await call(mock, '/v1/pets/1');
    expect(eve.status).toBe(200);
    expect(eve.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    mock.clock.advance('59s');
    expect((await call(mock, '/v1/pets/1')).status).toBe(200);
    mock.clock.advance('1s');
    const gone = await call(mock, '/v1/pets/1');
    expect([gone.status, gone.json.code]).toEqual([410, 'endpoint_removed']);
    expect(gone.headers.get('deprecation')).toBe('@1764892800');
    expect((await call(mock, '/v1/pets?limit=1')).status).toBe(200);
  });

  it('removed: 410 Gone on the deprecated endpoint (even without a key), the rest works', async () => {
    const mock = await startWithTime(fakeTime(T0), { scenario: 'removed' });
    expect(mock.clock.state()).toEqual({ now: '2031-01-01T00:00:00.000Z', frozen: false });
    expect((await call(mock, '/v1/pets/1')).json.code).toBe('endpoint_removed');
    expect((await call(mock, '/v1/pets/1', { key: null })).status).toBe(410);
    expect((await call(mock, '/v1/pets')).status).toBe(200);
    const created = await call(mock, '/v1/pets', post({ name: 'Late', categoryId: 2, status: 'pending' }));
    expect(created.status).toBe(201);
  });

  it('slow: every answer is delayed by a seeded latency between 100 ms and 1 s', async () => {
    const mock = await startWithTime(fakeTime(T0), { scenario: 'slow' });
    const delays = () =>
      Array.from(
        { length: 50 },
        () => mock.engine.handle({ method: 'GET', path: '/v1/pets', query: 'limit=1', headers: { authorization: 'Bearer demo-pro' } }).delayMs ?? 0,
      );
    const first = delays();
    expect(Math.min(...first)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...first)).toBeLessThanOrEqual(1000);
    mock.reset();
    expect(delays()).toEqual(first);
    mock.reset();
    // The adapter holds the answer back on a timer: with that timer faked, the answer comes exactly
    // when the seeded delay has passed, and no test time is spent waiting for it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let answered = false;
      const answer = rawGet(mock, '/v1/pets?limit=1').then((reply) => {
        answered = true;
        return reply;
      });
      while (mock.requests().length === 0) await new Promise((resolve) => setImmediate(resolve));
      expect(at(mock.requests(), 0).delayMs).toBe(at(first, 0));
      const held = vi.getTimerCount();
      expect(held).toBeGreaterThan(0);
      await vi.advanceTimersByTimeAsync(at(first, 0) - 1);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      // The adapter's timer has fired (the others belong to the client's and server's sockets).
      expect(vi.getTimerCount()).toBe(held - 1);
      expect((await answer).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('flaky: intermittent 5xx and dropped connections, the same pattern after every reset', async () => {
    const mock = await startWithTime(fakeTime(T0), { scenario: 'flaky' });
    const replay = async (): Promise<(number | string)[]> => {
      const seen: (number | string)[] = [];
      for (let i = 0; i < 60; i++) {
        try {
          const res = await call(mock, '/v1/pets?limit=2', { key: 'demo-pro', headers: { connection: 'close' } });
          seen.push(res.status);
          if (res.status >= 500) {
            expect(res.json.message).toContain('scenario flaky, chaos');
            if (res.status === 503) expect(res.headers.get('retry-after')).toBe('2');
          }
        } catch {
          seen.push('dropped');
        }
      }
      return seen;
    };
    const first = await replay();
    expect(new Set(first)).toEqual(new Set([200, 500, 502, 503, 'dropped']));
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(30);
    const faults = mock
      .requests()
      .filter((e) => e.fault)
      .map((e) => e.fault);
    expect(faults.length).toBe(first.filter((s) => s === 'dropped').length);
    expect(faults.every((f) => f === 'reset' || f === 'empty' || f === 'truncate')).toBe(true);
    mock.reset();
    expect(await replay()).toEqual(first);
  });

  it('create-fails-third: 2 creates succeed, the 3rd gets 503 with Retry-After, then normal', async () => {
    const mock = await startWithTime(fakeTime(T0), { scenario: 'create-fails-third', pets: 3 });
    const create = (name: string) => call(mock, '/v1/pets', post({ name, categoryId: 1 }));
    expect((await create('A')).status).toBe(201);
    expect((await call(mock, '/v1/pets')).status).toBe(200);
    expect((await create('B')).status).toBe(201);
    const failed = await create('C');
    expect(failed.status).toBe(503);
    expect(failed.json).toEqual({ code: 'service_unavailable', message: 'The store is briefly unavailable; retry after 5 seconds.', status: 503 });
    expect(failed.headers.get('retry-after')).toBe('5');
    expect(failed.headers.get('x-ratelimit-limit')).toBe('60');
    expect((await create('D')).json).toEqual({ id: 6, name: 'D', categoryId: 1 });
    expect(((await call(mock, '/v1/pets')).json as { name: string }[]).map((p) => p.name).slice(3)).toEqual(['A', 'B', 'D']);
    expect(
      mock
        .requests()
        .map((e) => [e.status, e.reason])
        .filter(([s]) => s === 503),
    ).toEqual([[503, 'scenario create-fails-third, step 2: forced 503']]);
  });
});

/** Sends one GET and reports how the connection ended: a status, or the error the client saw. */
function rawGet(mock: RunningMock, path: string): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = request(`${mock.origin}${path}`, { headers: { authorization: 'Bearer demo-pro', connection: 'close' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode, body }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ status: res.statusCode, body, error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

describe('forced connection faults', () => {
  it('acts out reset, empty reply and truncated body, then answers normally', async () => {
    const file = writeScenario('faults.yaml', [
      'description: one of each connection fault',
      'steps:',
      '  - answer: { fault: reset }',
      '  - answer: { fault: empty }',
      '  - answer: { fault: truncate }',
    ]);
    const mock = await startWithTime(fakeTime(T0), { scenario: file });
    expect(await rawGet(mock, '/v1/pets')).toEqual({ error: 'ECONNRESET' });
    expect(await rawGet(mock, '/v1/pets')).toEqual({ error: 'ECONNRESET' });
    const truncated = await rawGet(mock, '/v1/pets');
    expect(truncated.status).toBe(503);
    expect(truncated.error).toBe('ECONNRESET');
    expect(() => JSON.parse(truncated.body ?? '')).toThrow();
    expect((await rawGet(mock, '/v1/pets?limit=1')).status).toBe(200);
    expect(mock.requests().map((e) => [e.fault, e.reason])).toEqual([
      ['reset', 'scenario faults, step 1: connection reset'],
      ['empty', 'scenario faults, step 2: connection empty'],
      ['truncate', 'scenario faults, step 3: connection truncate'],
      [undefined, 'listed animals (limit 1)'],
    ]);
  });
});

describe('forced answers stay valid answers of the API', () => {
  it('a forced 429 has Retry-After matching its reset, a forced 401 WWW-Authenticate, a forced getPet answer the deprecation headers', async () => {
    const file = writeScenario('forced.yaml', [
      'description: one forced answer of each kind',
      'steps:',
      '  - match: { operation: listPets }',
      '    answer: { status: 429, retryAfter: 7 }',
      '  - match: { operation: listPets }',
      '    answer: { status: 401 }',
      '  - match: { operation: getPet }',
      '    answer: { status: 504, code: gateway_timeout }',
    ]);
    const mock = await startWithTime(fakeTime(T0 + 500), { scenario: file });
    const limited = await call(mock, '/v1/pets');
    expect([limited.status, limited.json.code]).toEqual([429, 'rate_limited']);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // Reset − Date is the Retry-After, as on every 429, even half a second into the second.
    expect(seconds(limited.headers, 'x-ratelimit-reset')).toBe(T0s + 7);
    expect(limited.headers.get('date')).toBe(new Date(T0).toUTCString());
    const unauthorized = await call(mock, '/v1/pets');
    expect([unauthorized.status, unauthorized.json.code]).toEqual([401, 'invalid_api_key']);
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer realm="petstore", error="invalid_token"');
    const timeout = await call(mock, '/v1/pets/1', { headers: { origin: 'https://app.example' } });
    expect([timeout.status, timeout.json.code]).toEqual([504, 'gateway_timeout']);
    expect(timeout.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(timeout.headers.get('access-control-allow-origin')).toBe('*');
    expect(timeout.headers.get('x-ratelimit-remaining')).toBe('58'); // the forced 429 consumed nothing; the forced 401 and this 504 count
    expect((await call(mock, '/v1/pets/1')).status).toBe(200);
  });
});
