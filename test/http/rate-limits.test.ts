import { beforeEach, describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from '../../src/core/state/plans.js';
import { T0, burst, call, post, useMock } from '../support/mock.js';
import { limitOf, MINUTE_MS } from '../../src/core/state/windows.js';
import type { Limits } from '../../src/core/types.js';
const perMinute = (l: Limits): number => limitOf(l, MINUTE_MS) ?? NaN;

const { mock, fresh } = useMock({ keys: ['five:pro:5:8'] });
beforeEach(fresh);

const MINUTE_END = (T0 + 60_000) / 1000;

describe('plan rate limits over HTTP', () => {
  it.each(Object.entries(PLAN_LIMITS).map(([plan, l]) => [plan, perMinute(l)]))(
    'demo-%s: request %i+1 within one minute gets 429 with Retry-After',
    async (plan, perMinute) => {
      const key = `demo-${plan}`;
      const statuses = await burst(mock(), perMinute, '/v1/pets?limit=1', { key });
      expect(statuses.every((s) => s === 200)).toBe(true);
      const refused = await call(mock(), '/v1/pets?limit=1', { key });
      expect(refused.status).toBe(429);
      expect(refused.json).toEqual({ code: 'rate_limited', message: expect.stringContaining('per-minute'), status: 429 });
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.headers.get('x-ratelimit-limit')).toBe(String(perMinute));
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('x-ratelimit-reset')).toBe(String(MINUTE_END));
      mock().clock.advance('60s');
      expect((await call(mock(), '/v1/pets?limit=1', { key })).status).toBe(200);
    },
    60_000,
  );

  it('demo-free: the 1,001st request of a UTC day gets 429 until midnight', async () => {
    mock().clock.set('2026-03-10T00:00:00Z');
    let ok = 0;
    for (let minute = 0; ok < 1000; minute++) {
      const statuses = await burst(mock(), Math.min(60, 1000 - ok), '/v1/pets?limit=1', { key: 'demo-free' });
      ok += statuses.filter((s) => s === 200).length;
      expect(statuses.every((s) => s === 200)).toBe(true);
      mock().clock.advance('60s');
    }
    const refused = await call(mock(), '/v1/pets?limit=1', { key: 'demo-free' });
    expect(refused.status).toBe(429);
    expect(refused.json.message).toContain('per-day');
    const midnight = Date.UTC(2026, 2, 11) / 1000;
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(midnight));
    expect(Number(refused.headers.get('retry-after'))).toBe(midnight - Math.floor(mock().clock.now().getTime() / 1000));
    mock().clock.set('2026-03-11T00:00:00Z');
    expect((await call(mock(), '/v1/pets?limit=1', { key: 'demo-free' })).status).toBe(200);
  }, 60_000);

  it('every answer carries the headers, errors included, describing the fewest-left window', async () => {
    const paths: [string, RequestInit & { key?: string | null }][] = [
      ['/v1/pets', { key: 'five' }],
      ['/v1/pets?limit=0', { key: 'five' }],
      ['/v1/pets', { ...post('{"name":1}'), key: 'five' }],
      ['/v1/pets/999999', { key: 'five' }],
      ['/v1/nope', { key: 'five' }],
    ];
    let remaining = 5;
    for (const [path, init] of paths) {
      const res = await call(mock(), path, init);
      remaining--;
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
      expect(res.headers.get('x-ratelimit-reset')).toBe(String(MINUTE_END));
    }
    // Next minute: 3 left in the day (8) and 5 in the minute, so the day is reported.
    mock().clock.advance('60s');
    const res = await call(mock(), '/v1/pets', { key: 'five' });
    expect(res.headers.get('x-ratelimit-limit')).toBe('8');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(res.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2026, 2, 11) / 1000));
  });

  it('a 429 consumes nothing: after the window the full quota is back', async () => {
    await burst(mock(), 5, '/v1/pets', { key: 'five' });
    const refused = await burst(mock(), 3, '/v1/pets', { key: 'five' });
    expect(refused).toEqual([429, 429, 429]);
    mock().clock.advance('60s');
    const res = await call(mock(), '/v1/pets', { key: 'five' });
    expect(res.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('counts requests without a valid key per client address at Free limits', async () => {
    const first = await call(mock(), '/v1/pets', { key: null });
    expect(first.status).toBe(401);
    expect(first.headers.get('x-ratelimit-limit')).toBe('60');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
    const second = await call(mock(), '/v1/pets', { key: 'wrong' });
    expect(second.headers.get('x-ratelimit-remaining')).toBe('58');
  });

  it('the OpenAPI document needs no key and counts nothing', async () => {
    const doc = await fetch(`${mock().url}/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('x-ratelimit-remaining')).toBe('60');
    const again = await fetch(`${mock().url}/openapi.json`);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('60');
  });
});

describe('temporary bans', () => {
  it('more than 10 refusals sent while told to wait ban the key for 5 minutes with its own code, then it recovers', async () => {
    await burst(mock(), 5, '/v1/pets', { key: 'five' });
    // The first 8 refusals of a wait are forgiven as requests in flight, whenever they come.
    expect(await burst(mock(), 8, '/v1/pets', { key: 'five' })).toEqual(Array(8).fill(429));
    mock().clock.advance('2s');
    // Each later one counts, on a frozen clock as on a running one.
    expect(await burst(mock(), 10, '/v1/pets', { key: 'five' })).toEqual(Array(10).fill(429));
    const journal = mock().requests();
    expect(journal.at(-11)).toMatchObject({ status: 429, retryAfter: 60, ban: { counted: false, count: 0, after: 10 } });
    expect(journal.at(-11)?.reason).toContain('Not counted toward a ban: one of the first 8 refusals of this wait');
    expect(journal.at(-1)).toMatchObject({ status: 429, retryAfter: 58, ban: { counted: true, count: 10, after: 10 } });
    expect(journal.at(-1)?.reason).toContain('Counted toward a ban: 10 of 11.');
    const banned = await call(mock(), '/v1/pets', { key: 'five' });
    expect(banned.status).toBe(429);
    expect(banned.json.code).toBe('key_banned');
    expect(banned.headers.get('retry-after')).toBe('300');
    expect(banned.headers.get('x-ratelimit-reset')).toBe(String(T0 / 1000 + 302));
    expect(banned.headers.get('date')).toBe(new Date(T0 + 2000).toUTCString());
    // The minute window resets but the ban holds.
    mock().clock.advance('61s');
    const still = await call(mock(), '/v1/pets', { key: 'five' });
    expect(still.json.code).toBe('key_banned');
    expect(still.headers.get('retry-after')).toBe('239');
    mock().clock.advance('239s');
    expect((await call(mock(), '/v1/pets', { key: 'five' })).status).toBe(200);
  });

  it('bans only the key that kept sending', async () => {
    await burst(mock(), 6, '/v1/pets', { key: 'five' });
    mock().clock.advance('2s');
    await burst(mock(), 17, '/v1/pets', { key: 'five' });
    expect((await call(mock(), '/v1/pets', { key: 'five' })).json.code).toBe('key_banned');
    expect((await call(mock(), '/v1/pets', { key: 'demo-pro' })).status).toBe(200);
  });
});
