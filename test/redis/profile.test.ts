// A profiled mock on a shared state: every key has the profile's limits and the answers its
// latency, as in memory (the latency drawn from the session's seeded sequence kept in Redis).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();

const PROFILE = {
  format: 'petstore-mock/profile',
  version: 1,
  base: 'https://staging.example.com/v1',
  measuredAt: '2026-03-10T12:00:00.000Z',
  operations: { listPets: { latencyMs: { p50: 30, p95: 45, p99: 50 } } },
  limits: ['4/s', '600/m'],
  retryAfterForm: 'seconds',
};

describe.skipIf(!run)('a profiled mock on Redis', () => {
  let redis: TestRedis;
  let mock: SharedRunningMock;
  beforeAll(async () => {
    redis = await TestRedis.start();
    mock = await startMock({ state: redis.url, statePrefix: 'profiled', profile: PROFILE, keys: ['mine:business'] });
  });
  afterAll(async () => {
    await mock?.close();
    await redis?.stop();
  });

  it("every key gets the profile's windows exactly, and every answer its latency", async () => {
    await mock.clock.freeze();
    await mock.clock.set('2026-03-10T12:00:00.000Z');
    for (const key of ['demo-free', 'mine']) {
      const statuses: (number | null)[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) {
        last = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
        await last.text();
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      expect(last?.headers.get('x-ratelimit-limit')).toBe('4');
      expect(last?.headers.get('retry-after')).toBe('1');
    }
    const delays = (await mock.requests()).map((e) => e.delayMs ?? 0);
    expect(delays).toHaveLength(10);
    for (const ms of delays) expect(ms).toBeGreaterThanOrEqual(15);
    for (const ms of delays) expect(ms).toBeLessThanOrEqual(52);
  });
});
