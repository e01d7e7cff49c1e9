// Rate windows are data on Redis too: the Lua limiter takes any number of windows of any length,
// and answers as the in-memory limiter does, request by request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock, type SharedRunningMock } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();

const KEYS = [
  'one:free:3/s',
  'three:pro:2/s,5/m,7/h',
  'four:enterprise:1/s,3/m,5/h,9/d',
  // Two windows, as a plan's minute and day (the Lua limiter's quickest case): the day, the minute
  // and, on a tie, the window that resets later is the one reported.
  'two-day:pro:6/m,4/d',
  'two-minute:pro:2/m,50/d',
  'two-tie:pro:3/m,3/d',
  // Six windows, three of lengths no unit names: a new length needs no code.
  {
    key: 'six',
    plan: 'pro' as const,
    limits: [
      { lengthMs: 1_500, max: 2 },
      { lengthMs: 7_000, max: 3 },
      { lengthMs: 60_000, max: 4 },
      { lengthMs: 600_000, max: 5 },
      { lengthMs: 3_600_000, max: 6 },
      { lengthMs: 86_400_000, max: 8 },
    ],
  },
];

/** Requests per key between clock moves, and the moves (ms): bursts that fill one window after another. */
const PLAN: [number, number][] = [
  [4, 0],
  [2, 400],
  [3, 1_100],
  [2, 2_000],
  [3, 5_000],
  [2, 61_000],
  [4, 600_000],
  [2, 3_600_000],
  [3, 86_400_000],
];

interface Seen {
  status: number;
  headers: Record<string, string | null>;
  code?: string;
  message?: string;
}

async function get(base: string, key: string): Promise<Seen> {
  const res = await fetch(`${base}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
  const headers = Object.fromEntries(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'].map((h) => [h, res.headers.get(h)]));
  const body = (await res.json()) as { code?: string; message?: string };
  return res.status === 429 ? { status: res.status, headers, code: body.code, message: body.message } : { status: res.status, headers };
}

describe.skipIf(!run)('rate windows on Redis', () => {
  let redis: TestRedis;
  let shared: SharedRunningMock;
  let memory: RunningMock;

  beforeAll(async () => {
    redis = await TestRedis.start();
    shared = await startMock({ state: redis.url, statePrefix: 'win', keys: KEYS });
    memory = await startMock({ port: 0, keys: KEYS });
    await shared.clock.freeze();
    await shared.clock.set(T0);
    memory.clock.freeze();
    memory.clock.set(T0);
  });
  afterAll(async () => {
    await shared?.close();
    await memory?.close();
    await redis?.stop();
  });

  it('answers every request of keys with one to six windows as the in-memory limiter does', async () => {
    const names = KEYS.map((k) => (typeof k === 'string' ? k.split(':')[0] : k.key)) as string[];
    const seen: Seen[] = [];
    const resets: Record<string, string[]> = {};
    for (const [count, move] of PLAN) {
      await shared.clock.advance(move);
      memory.clock.advance(move);
      for (const key of names) {
        for (let i = 0; i < count; i++) {
          const [a, b] = [await get(shared.url, key), await get(memory.url, key)];
          expect(a).toEqual(b);
          seen.push(a);
          if (a.status === 200)
            (resets[key] ??= []).push(`${a.headers['x-ratelimit-limit']}@${Number(a.headers['x-ratelimit-reset']) % 86_400 === 0 ? 'day' : 'other'}`);
        }
      }
    }
    // Not vacuous: each kind of window refused, and a length of no unit is named by its milliseconds.
    const messages = seen.filter((s) => s.status === 429).map((s) => s.message ?? '');
    for (const which of ['per-second', 'per-minute', 'per-hour', 'per-1500ms', 'per-7000ms']) expect(messages.some((m) => m.includes(which))).toBe(true);
    expect(seen.filter((s) => s.status === 200).length).toBeGreaterThan(20);
    // Of two windows each was reported: the day where it had fewer left or as many, else the minute.
    expect(resets['two-day']).toContain('4@day');
    expect(resets['two-minute']).toContain('2@other');
    expect(resets['two-tie']).toContain('3@day');
  });
});
