import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import { BAN_IN_FLIGHT } from '../../src/core/state/limiter.js';
import { buildBaseData, defaultSettings } from '../../src/core/state/session-settings.js';
import { minuteDay } from '../../src/core/state/windows.js';
import { at } from '../support/checked.js';

const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);
const HORIZON = 4 * 60_000;
const MAX_REQUESTS = 5000;

/**
 * Callers sharing one key, on the virtual clock. Each has a request in flight or is waiting:
 * `lag` is its round trip (under a second: the answer's trip back plus the next request's trip
 * out). All start within the first second, so none begins in the middle of another's wait (the
 * documented rule counts a first request sent then: the mock cannot tell it from a retry). A
 * compliant caller sends again one round trip after any answer but a 429, and after a
 * 429 waits the announced Retry-After first. A non-compliant one sends again after `gap` ms
 * whatever it was told (at least every 1.5 s).
 */
interface Caller {
  compliant: boolean;
  lags: number[];
  gap: number;
  sent: number;
  nextAt: number;
}

const scenario = fc.record({
  limits: fc.record({ perMinute: fc.integer({ min: 1, max: 6 }), perDay: fc.integer({ min: 4, max: 40 }) }).map((l) => minuteDay(l.perMinute, l.perDay)),
  after: fc.integer({ min: 1, max: 4 }),
  start: fc.integer({ min: 0, max: 59_999 }),
  compliant: fc.array(fc.array(fc.integer({ min: 0, max: 999 }), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: BAN_IN_FLIGHT }),
  rogues: fc.array(
    fc.record({
      lags: fc.array(fc.integer({ min: 0, max: 999 }), { minLength: 1, maxLength: 3 }),
      gap: fc.integer({ min: 200, max: 1500 }),
      offset: fc.integer({ min: 0, max: 999 }),
    }),
    { maxLength: 2 },
  ),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** Plays the callers against an engine until the horizon; returns each answer with who got it. */
function play(input: Scenario, stopAtBan = false) {
  const { limits, after, start, compliant, rogues } = input;
  const settings = {
    ...defaultSettings(buildBaseData({ count: 3 }), [{ key: 'shared', plan: 'free' as const, limits }]),
    ban: { after, durationMs: 120_000 },
    clock: { start: T0 + start, frozen: true },
  };
  const engine = new MockEngine({ settings });
  const clock = engine.sessions.defaultSession.clock;
  const callers: Caller[] = [
    ...compliant.map((lags) => ({ compliant: true, lags, gap: 0, sent: 0, nextAt: T0 + start + at(lags, 0) })),
    ...rogues.map((r) => ({ compliant: false, lags: r.lags, gap: r.gap, sent: 0, nextAt: T0 + start + r.offset })),
  ];
  const answers: { caller: Caller; at: number; status: number; code?: string; headers: Record<string, string> }[] = [];
  for (let n = 0; n < MAX_REQUESTS; n++) {
    const caller = callers.reduce((a, b) => (b.nextAt < a.nextAt ? b : a));
    if (caller.nextAt > T0 + start + HORIZON) break;
    clock.set(caller.nextAt);
    const res = engine.handle({ method: 'GET', path: '/v1/pets', query: 'limit=1', headers: { authorization: 'Bearer shared' } });
    const code = res.status === 429 ? (JSON.parse(res.body ?? '{}') as { code: string }).code : undefined;
    answers.push({ caller, at: caller.nextAt, status: res.status, code, headers: res.headers });
    if (stopAtBan && code === 'key_banned') break;
    const lag = at(caller.lags, caller.sent++ % caller.lags.length);
    if (!caller.compliant) caller.nextAt += caller.gap + lag;
    else if (res.status === 429) caller.nextAt += Number(res.headers['Retry-After']) * 1000 + lag;
    else caller.nextAt += lag;
  }
  return answers;
}

describe('bans over interleavings of callers sharing a key, on the virtual clock', () => {
  it('callers that wait Retry-After before each retry are never banned, up to BAN_IN_FLIGHT of them sharing the key', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const answers = play({ ...input, rogues: [] });
        expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
        expect(answers.filter((a) => a.code === 'key_banned')).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('a caller that keeps sending while told to wait gets the key banned, among compliant ones (BAN_IN_FLIGHT callers in all)', () => {
    fc.assert(
      fc.property(
        scenario.filter((s) => s.rogues.length > 0),
        (generated) => {
          // More callers than the in-flight allowance sending their first request at one instant
          // cannot be told from a loop; the guarantee holds for up to BAN_IN_FLIGHT callers in all.
          const input = { ...generated, compliant: generated.compliant.slice(0, BAN_IN_FLIGHT - generated.rogues.length) };
          const answers = play(input, true);
          const firstBan = answers.findIndex((a) => a.code === 'key_banned');
          expect(firstBan).toBeGreaterThan(-1);
          // The ban came after a caller that was told to wait sent again before its wait was over.
          const rogueRetriedEarly = answers
            .slice(0, firstBan)
            .some(
              (a, i) =>
                !a.caller.compliant &&
                a.status === 429 &&
                answers.slice(i + 1, firstBan + 1).some((b) => b.caller === a.caller && b.at < a.at + Number(a.headers['Retry-After']) * 1000),
            );
          expect(rogueRetriedEarly).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('on every 429, X-RateLimit-Reset − Date is Retry-After and Date is the virtual instant', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        for (const a of play(input)) {
          expect(a.headers.Date).toBe(new Date(Math.floor(a.at / 1000) * 1000).toUTCString());
          if (a.status !== 429) continue;
          const date = Date.parse(a.headers.Date ?? '') / 1000;
          expect(Number(a.headers['X-RateLimit-Reset']) - date).toBe(Number(a.headers['Retry-After']));
        }
      }),
      { numRuns: 100 },
    );
  });
});
