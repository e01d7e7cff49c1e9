import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import { BAN_IN_FLIGHT, RateLimiter, rateHeaders, type RateReport } from '../../src/core/state/limiter.js';
import { buildBaseData, defaultSettings } from '../../src/core/state/session-settings.js';
import type { BanRule, Limits } from '../../src/core/types.js';
import { at } from '../support/checked.js';
import { limitOf, minuteDay, MINUTE_MS, DAY_MS } from '../../src/core/state/windows.js';
const perMinute = (l: Limits): number => limitOf(l, MINUTE_MS) ?? NaN;
const perDay = (l: Limits): number => limitOf(l, DAY_MS) ?? NaN;

const MINUTE = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 10, 23, 58, 30);

/**
 * The reference: the documented rules written as plainly as possible. Windows are the clock's
 * minute and the UTC day; a request counts only when both have room; the reported window is the
 * one with fewer left (the day on a tie). A 429 when no wait runs starts one, lasting to the
 * reset it announces; of the refusals arriving while it runs (the first included), the first
 * `BAN_IN_FLIGHT` are forgiven as in flight and each later one counts; more than `after` counted in
 * one wait ban the key until a whole second `durationMs` later.
 */
class ModelKey {
  minuteStart = -1;
  dayStart = -1;
  inMinute = 0;
  inDay = 0;
  wait: { start: number; end: number } | undefined;
  counted = 0;
  forgiven = 0;
  bannedUntil = 0;
  constructor(
    private readonly limits: Limits,
    private readonly ban: BanRule,
  ) {}

  private roll(now: number): void {
    const minuteStart = now - (now % MINUTE);
    const dayStart = now - (now % DAY);
    if (minuteStart !== this.minuteStart) [this.minuteStart, this.inMinute] = [minuteStart, 0];
    if (dayStart !== this.dayStart) [this.dayStart, this.inDay] = [dayStart, 0];
  }

  report(now: number): RateReport {
    this.roll(now);
    const minuteLeft = Math.max(0, perMinute(this.limits) - this.inMinute);
    const dayLeft = Math.max(0, perDay(this.limits) - this.inDay);
    const minute = minuteLeft < dayLeft;
    const base = minute
      ? { limit: perMinute(this.limits), remaining: minuteLeft, reset: (this.minuteStart + MINUTE) / 1000 }
      : { limit: perDay(this.limits), remaining: dayLeft, reset: (this.dayStart + DAY) / 1000 };
    if (this.bannedUntil > now) return { limit: base.limit, remaining: 0, reset: this.bannedUntil / 1000, retryAfter: wait(this.bannedUntil, now) };
    return base;
  }

  take(now: number, enforce: boolean): { outcome: 'allowed' | 'limited' | 'banned'; report: RateReport } {
    this.roll(now);
    if (this.bannedUntil > now) return { outcome: 'banned', report: this.report(now) };
    if (this.inMinute < perMinute(this.limits) && this.inDay < perDay(this.limits)) {
      this.inMinute++;
      this.inDay++;
      return { outcome: 'allowed', report: this.report(now) };
    }
    if (!enforce) return { outcome: 'limited', report: this.report(now) };
    const end = this.report(now).reset * 1000;
    const running = this.wait !== undefined && this.wait.start <= now && now < this.wait.end;
    if (!running) {
      this.wait = { start: now, end };
      this.counted = 0;
      this.forgiven = 0;
    } else if (this.wait !== undefined) {
      this.wait.end = Math.max(this.wait.end, end);
    }
    if (this.forgiven < BAN_IN_FLIGHT) this.forgiven++;
    else this.counted++;
    if (this.ban.after > 0 && this.counted > this.ban.after) {
      this.counted = 0;
      this.wait = undefined;
      this.bannedUntil = Math.ceil((now + this.ban.durationMs) / 1000) * 1000;
      return { outcome: 'banned', report: this.report(now) };
    }
    const report = this.report(now);
    return { outcome: 'limited', report: { ...report, retryAfter: wait(report.reset * 1000, now) } };
  }

  /** Instants where behaviour changes: the ban's end, window ends. */
  edges(now: number): number[] {
    this.roll(now);
    return [...(this.bannedUntil > now ? [this.bannedUntil] : []), this.minuteStart + MINUTE, this.dayStart + DAY];
  }
}

function wait(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}

type Step =
  { kind: 'take'; key: number; enforce: boolean } | { kind: 'advance'; ms: number } | { kind: 'edge'; key: number; which: number; offset: -1 | 0 | 1 };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('take' as const), key: fc.integer({ min: 0, max: 1 }), enforce: fc.constantFrom(true, true, true, false) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 3 * MINUTE })) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('edge' as const),
      key: fc.integer({ min: 0, max: 1 }),
      which: fc.nat({ max: 5 }),
      offset: fc.constantFrom(-1 as const, 0 as const, 1 as const),
    }),
  },
);
const config = fc.record({
  limits: fc.record({ perMinute: fc.integer({ min: 1, max: 5 }), perDay: fc.integer({ min: 1, max: 12 }) }).map((l) => minuteDay(l.perMinute, l.perDay)),
  ban: fc.record({ after: fc.integer({ min: 0, max: 3 }), durationMs: fc.integer({ min: 1, max: 200_000 }) }),
  start: fc.integer({ min: 0, max: 3 * MINUTE }),
  steps: fc.array(step, { minLength: 1, maxLength: 120 }),
});

/** Moves `now` as a step says; edges come from the model of the key the step names (never backwards). */
function move(now: number, s: Step, models: ModelKey[]): number {
  if (s.kind === 'advance') return now + s.ms;
  if (s.kind !== 'edge') return now;
  // A ban's end comes first in the list, so a third of the edge steps of a banned key land on it.
  const edges = at(models, s.key).edges(now);
  const target = at(edges, s.which % edges.length) + s.offset;
  return Math.max(now, target);
}

describe('the rate limiter against a reference model', () => {
  it('agrees on every decision and every header, window and ban edges included', () => {
    fc.assert(
      fc.property(config, ({ limits, ban, start, steps }) => {
        const limiter = new RateLimiter(ban);
        const models = [new ModelKey(limits, ban), new ModelKey(limits, ban)];
        let now = T0 + start;
        for (const s of steps) {
          now = move(now, s, models);
          if (s.kind !== 'take') continue;
          const real = limiter.take(`k${s.key}`, limits, now, s.enforce);
          const expected = at(models, s.key).take(now, s.enforce);
          expect({ outcome: real.outcome, headers: rateHeaders(real.report) }).toEqual({ outcome: expected.outcome, headers: rateHeaders(expected.report) });
          for (const k of [0, 1]) expect(rateHeaders(limiter.peek(`k${k}`, limits, now))).toEqual(rateHeaders(at(models, k).report(now)));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the engine against the same model', () => {
  it('answers 200, 429 rate_limited or 429 key_banned with the model headers at every step', () => {
    fc.assert(
      fc.property(config, ({ limits, ban, start, steps }) => {
        const settings = {
          ...defaultSettings(buildBaseData({ count: 3 }), [
            { key: 'k0', plan: 'free' as const, limits },
            { key: 'k1', plan: 'free' as const, limits },
          ]),
          ban,
          clock: { start: T0 + start, frozen: true },
        };
        const engine = new MockEngine({ settings });
        const clock = engine.sessions.defaultSession.clock;
        const models = [new ModelKey(limits, ban), new ModelKey(limits, ban)];
        for (const s of steps) {
          clock.set(move(clock.now(), s, models));
          if (s.kind !== 'take') continue;
          // An unknown path is answered before the limit check: it counts when there is room but is never refused.
          const path = s.enforce ? '/v1/pets' : '/v1/nope';
          const res = engine.handle({ method: 'GET', path, query: 'limit=1', headers: { authorization: `Bearer k${s.key}` } });
          const expected = at(models, s.key).take(clock.now(), s.enforce);
          const status = !s.enforce ? 404 : expected.outcome === 'allowed' ? 200 : 429;
          expect(res.status).toBe(status);
          if (status === 429) expect(JSON.parse(res.body ?? '{}').code).toBe(expected.outcome === 'banned' ? 'key_banned' : 'rate_limited');
          const shown = status === 429 ? expected.report : { limit: expected.report.limit, remaining: expected.report.remaining, reset: expected.report.reset };
          const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => name.startsWith('X-RateLimit') || name === 'Retry-After'));
          expect(headers).toEqual(rateHeaders(shown));
        }
      }),
      { numRuns: 150 },
    );
  });
});
