import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import { MAX_INSTANT_MS } from '../../src/core/state/clock.js';
import { keyBucket } from '../../src/core/state/session-state.js';
import { buildBaseData, defaultSettings } from '../../src/core/state/session-settings.js';
import type { CoreResponse } from '../../src/core/types.js';
import { minuteDay } from '../../src/core/state/windows.js';

const base = buildBaseData({ count: 3 });
const LONGEST_BAN = 2 * MAX_INSTANT_MS; // more than any clock could wait out: the ban ends at the last instant

/**
 * An engine frozen at `at` with a tight key, a ban after one refusal that outlasts time, and a key
 * banned by a scenario's usage line. Refusals count from the first one (no grace), so a frozen
 * clock can ban at any instant, however close the window's end.
 */
function engineAt(at: number): MockEngine {
  const settings = defaultSettings(base, [{ key: 'tight', plan: 'free', limits: minuteDay(2, 3), custom: true }]);
  return new MockEngine({
    settings: {
      ...settings,
      ban: { after: 1, durationMs: LONGEST_BAN, inFlight: 1 },
      clock: { start: at, frozen: true },
      usage: [{ key: 'demo-pro', counts: [], bannedForMs: 100_000_000 * 86_400_000 }],
    },
  });
}

const get = (engine: MockEngine, key: string): CoreResponse =>
  engine.handle({ method: 'GET', path: '/v1/pets', query: 'limit=1', headers: { authorization: `Bearer ${key}` } });

function expectSound(res: CoreResponse): void {
  expect(res.status).toBeLessThan(500);
  for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) expect(res.headers[name]).toMatch(/^-?\d+$/);
  if (res.status === 429) {
    expect(res.headers['Retry-After']).toMatch(/^[1-9]\d*$/);
    // No reset lies past the last instant, where no clock could reach it.
    const reset = Number(res.headers['X-RateLimit-Reset']);
    expect(reset).toBeLessThanOrEqual(MAX_INSTANT_MS / 1000);
  }
  expect(() => JSON.parse(res.body ?? '{}')).not.toThrow();
}

const instants = fc.oneof(
  fc.integer({ min: -MAX_INSTANT_MS, max: MAX_INSTANT_MS }),
  fc.constantFrom(-MAX_INSTANT_MS, -MAX_INSTANT_MS + 1, -86_400_001, -60_000, -1, 0, MAX_INSTANT_MS - 60_001, MAX_INSTANT_MS - 1, MAX_INSTANT_MS),
);

describe('every instant the clock can hold', () => {
  it('gives integer rate headers and no 5xx, through quota, 429, ban and the admin view', () => {
    fc.assert(
      fc.property(instants, (at) => {
        const engine = engineAt(at);
        const tight = [1, 2, 3, 4, 5].map(() => get(engine, 'tight'));
        const answers = [...tight, get(engine, 'demo-pro'), get(engine, 'demo-free')];
        answers.forEach(expectSound);
        // A fresh key is served from its first request, before 1970 too.
        expect(answers[6]?.status).toBe(200);
        if (at < MAX_INSTANT_MS) {
          // The first 429 starts the wait and is forgiven (`inFlight: 1`); the next is counted, and the one after passes `after: 1`.
          expect(tight.map((r) => r.status)).toEqual([200, 200, 429, 429, 429]);
          expect(tight.map((r) => JSON.parse(r.body ?? '{}').code)).toEqual([undefined, undefined, 'rate_limited', 'rate_limited', 'key_banned']);
          expect(answers[5]?.status).toBe(429);
        } else {
          // At the last instant no window can end, so nothing is counted there.
          expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
        }
        // The admin view of every key prints its ban as a date.
        const world = engine.sessions.defaultSession;
        for (const key of world.keys.values()) {
          const report = world.limiter.peek(keyBucket(key.key), key.limits, world.clock.now());
          if (report.bannedUntil !== undefined) expect(new Date(report.bannedUntil).toISOString()).toMatch(/Z$/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a client that waits Retry-After (or until the last instant) is served again', () => {
    fc.assert(
      fc.property(instants, (at) => {
        const engine = engineAt(at);
        const clock = engine.sessions.defaultSession.clock;
        get(engine, 'tight');
        get(engine, 'tight');
        const limited = get(engine, 'tight');
        const banned = get(engine, 'tight');
        for (const refusal of [limited, banned]) {
          if (refusal.status !== 429) continue;
          clock.set(Math.min(MAX_INSTANT_MS, clock.now() + Number(refusal.headers['Retry-After']) * 1000));
        }
        expect(get(engine, 'tight').status).toBe(200);
      }),
      { numRuns: 300 },
    );
  });
});
