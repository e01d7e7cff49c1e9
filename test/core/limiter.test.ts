import { describe, expect, it } from 'vitest';
import { BAN_IN_FLIGHT, RateLimiter, rateHeaders } from '../../src/core/state/limiter.js';
import { PLAN_LIMITS } from '../../src/core/state/plans.js';
import { minuteDay, limitOf, MINUTE_MS, DAY_MS } from '../../src/core/state/windows.js';
import type { Limits } from '../../src/core/types.js';
const perMinute = (l: Limits): number => limitOf(l, MINUTE_MS) ?? NaN;
const perDay = (l: Limits): number => limitOf(l, DAY_MS) ?? NaN;

const MIN = 60_000;
// 2026-03-10T12:00:00Z: a whole minute, mid-day.
const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);
const noBan = { after: 0, durationMs: 0 };

describe('RateLimiter: the two fixed windows', () => {
  it.each(Object.entries(PLAN_LIMITS))(
    'lets exactly the %s plan per-minute number through, then refuses with Retry-After to the minute end',
    (_plan, limits) => {
      const limiter = new RateLimiter(noBan);
      for (let i = 1; i <= perMinute(limits); i++) {
        const d = limiter.take('k', limits, T0 + 10_000, true);
        expect(d.outcome).toBe('allowed');
        expect(d.report.remaining).toBe(perMinute(limits) - i);
        expect(d.report.limit).toBe(perMinute(limits));
      }
      const refused = limiter.take('k', limits, T0 + 10_000, true);
      expect(refused).toMatchObject({ outcome: 'limited', window: 'minute' });
      expect(refused.report).toEqual({ limit: perMinute(limits), remaining: 0, reset: (T0 + MIN) / 1000, retryAfter: 50 });
    },
  );

  it.each(Object.entries(PLAN_LIMITS))('refuses the %s plan past its per-day number until the next UTC midnight', (_plan, limits) => {
    const limiter = new RateLimiter(noBan);
    const midnight = Date.UTC(2026, 2, 11);
    let t = Date.UTC(2026, 2, 10);
    let allowed = 0;
    // Spread the day's quota over minutes so the minute window never bites.
    let refusedEarly = 0;
    while (allowed < perDay(limits)) {
      const burst = Math.min(perMinute(limits), perDay(limits) - allowed);
      for (let i = 0; i < burst; i++) if (limiter.take('k', limits, t, true).outcome !== 'allowed') refusedEarly++;
      allowed += burst;
      t += MIN;
    }
    expect(refusedEarly).toBe(0);
    const refused = limiter.take('k', limits, t, true);
    expect(refused).toMatchObject({ outcome: 'limited', window: 'day' });
    expect(refused.report.reset).toBe(midnight / 1000);
    expect(refused.report.retryAfter).toBe(Math.ceil((midnight - t) / 1000));
    expect(limiter.take('k', limits, midnight, true).outcome).toBe('allowed');
  });

  it('a refused request consumes nothing', () => {
    const limiter = new RateLimiter(noBan);
    const limits = minuteDay(2, 100);
    limiter.take('k', limits, T0, true);
    limiter.take('k', limits, T0, true);
    for (let i = 0; i < 5; i++) expect(limiter.take('k', limits, T0, true).outcome).toBe('limited');
    const next = limiter.take('k', limits, T0 + MIN, true);
    expect(next.outcome).toBe('allowed');
    // The day window counted only the two allowed requests plus this one.
    expect(limiter.peek('k', minuteDay(1000, 100), T0 + MIN).remaining).toBe(97);
  });

  it('resets the minute window at the boundary, not 60 s after the first request', () => {
    const limiter = new RateLimiter(noBan);
    const limits = minuteDay(1, 100);
    expect(limiter.take('k', limits, T0 + MIN - 1, true).outcome).toBe('allowed');
    expect(limiter.take('k', limits, T0 + MIN - 1, true).outcome).toBe('limited');
    expect(limiter.take('k', limits, T0 + MIN, true).outcome).toBe('allowed');
  });

  it('reports the window with the fewest requests left, and the later one on a tie', () => {
    const limiter = new RateLimiter(noBan);
    const limits = minuteDay(5, 7);
    // After 1: minute 4 left, day 6 left -> minute.
    expect(limiter.take('k', limits, T0, true).report).toEqual({ limit: 5, remaining: 4, reset: (T0 + MIN) / 1000 });
    limiter.take('k', limits, T0, true);
    // After 2 the minute has 3 left, the day 5.
    limiter.take('k', limits, T0 + MIN, true);
    limiter.take('k', limits, T0 + MIN, true);
    // Day: 3 left; minute: 3 left -> tie -> the day (resets later).
    const tie = limiter.take('k', limits, T0 + MIN, true);
    expect(tie.report.remaining).toBe(2);
    expect(tie.report.limit).toBe(7);
    expect(tie.report.reset).toBe(Date.UTC(2026, 2, 11) / 1000);
  });

  it('Retry-After equals X-RateLimit-Reset minus now, in whole seconds, at least 1', () => {
    const limiter = new RateLimiter(noBan);
    const limits = minuteDay(1, 100);
    const now = T0 + MIN - 200;
    limiter.take('k', limits, now, true);
    const refused = limiter.take('k', limits, now, true);
    expect(refused.report.retryAfter).toBe(1);
    expect(refused.report.reset - Math.floor(now / 1000)).toBe(1);
  });

  it('counts answers given before the rate-limit check when there is room, and never refuses them', () => {
    const limiter = new RateLimiter({ after: 1, durationMs: MIN });
    const limits = minuteDay(1, 100);
    expect(limiter.take('k', limits, T0, false).outcome).toBe('allowed');
    for (let i = 0; i < 5; i++) expect(limiter.take('k', limits, T0, false)).toMatchObject({ outcome: 'limited', report: { remaining: 0 } });
    // Unenforced refusals do not walk towards a ban.
    expect(limiter.take('k', limits, T0, true).outcome).toBe('limited');
  });

  it('renders the three headers, and Retry-After only on a refusal', () => {
    expect(rateHeaders({ limit: 60, remaining: 3, reset: 100 })).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '3',
      'X-RateLimit-Reset': '100',
    });
    expect(rateHeaders({ limit: 60, remaining: 0, reset: 100, retryAfter: 7 })['Retry-After']).toBe('7');
  });
});

describe('RateLimiter: temporary bans', () => {
  const limits = minuteDay(2, 1000);
  const IN_FLIGHT = BAN_IN_FLIGHT;

  /** Uses up the minute at `at` and returns the first 429, which starts the wait. */
  function fillAndRefuse(limiter: RateLimiter, at: number, l = limits) {
    for (let i = 0; i < perMinute(l); i++) expect(limiter.take('k', l, at, true).outcome).toBe('allowed');
    const first = limiter.take('k', l, at, true);
    expect(first.outcome).toBe('limited');
    return first;
  }

  it('bans after more than `after` refusals past the in-flight ones of a wait, for the ban duration, then lets requests through again', () => {
    const limiter = new RateLimiter({ after: 3, durationMs: 5 * MIN });
    fillAndRefuse(limiter, T0);
    const late = T0 + 1000;
    for (let i = 1; i < IN_FLIGHT; i++) expect(limiter.take('k', limits, late, true)).toMatchObject({ outcome: 'limited', ban: { counted: false, count: 0 } });
    for (let i = 1; i <= 3; i++)
      expect(limiter.take('k', limits, late, true)).toMatchObject({ outcome: 'limited', ban: { counted: true, count: i, after: 3 } });
    const banned = limiter.take('k', limits, late, true);
    expect(banned).toMatchObject({ outcome: 'banned', justBanned: true, bannedUntil: late + 5 * MIN, ban: { counted: true, count: 4 } });
    expect(banned.report.retryAfter).toBe(300);
    expect(banned.report.reset).toBe((late + 5 * MIN) / 1000);
    expect(banned.report.remaining).toBe(0);
    // Still banned after the minute window resets.
    const later = limiter.take('k', limits, T0 + 2 * MIN, true);
    expect(later).toMatchObject({ outcome: 'banned', justBanned: false, ban: { counted: false } });
    expect(later.report.retryAfter).toBe(Math.ceil((late + 5 * MIN - (T0 + 2 * MIN)) / 1000));
    expect(limiter.take('k', limits, late + 5 * MIN, true).outcome).toBe('allowed');
  });

  it('a loop that ignores its 429s is banned on a frozen clock: the in-flight allowance is a count, not a time', () => {
    const limiter = new RateLimiter({ after: 3, durationMs: MIN });
    fillAndRefuse(limiter, T0);
    const outcomes = Array.from({ length: 30 }, () => limiter.take('k', limits, T0, true).outcome);
    expect(outcomes.indexOf('banned')).toBe(IN_FLIGHT + 3 - 1);
  });

  it('a refusal in a wait of its own is forgiven: callers back after the announced wait are not counted, however many at once', () => {
    const limiter = new RateLimiter({ after: 1, durationMs: MIN });
    const first = fillAndRefuse(limiter, T0 + 27_500);
    expect(first.report.retryAfter).toBe(33);
    // The minute refills at once; everyone who waited Retry-After (33 s, so half a second past the reset) may be refused again.
    const back = T0 + 27_500 + 33_000;
    fillAndRefuse(limiter, back);
    for (let i = 1; i < IN_FLIGHT; i++) expect(limiter.take('k', limits, back + 5000, true).outcome).toBe('limited');
    // Past the in-flight allowance of the new wait, refusals count.
    expect(limiter.take('k', limits, back + 5000, true).outcome).toBe('limited');
    expect(limiter.take('k', limits, back + 5000, true).outcome).toBe('banned');
  });

  it('counts per wait: a wait that ends without a ban leaves nothing behind', () => {
    const limiter = new RateLimiter({ after: 2, durationMs: MIN, inFlight: 1 });
    const l = minuteDay(1, 1000);
    fillAndRefuse(limiter, T0, l);
    limiter.take('k', l, T0 + 1, true);
    limiter.take('k', l, T0 + 1, true);
    fillAndRefuse(limiter, T0 + MIN, l);
    limiter.take('k', l, T0 + MIN + 1, true);
    expect(limiter.take('k', l, T0 + MIN + 1, true).outcome).toBe('limited');
    expect(limiter.take('k', l, T0 + MIN + 1, true).outcome).toBe('banned');
  });

  it('a day-window wait runs to midnight: refusals all through it count', () => {
    const limiter = new RateLimiter({ after: 1, durationMs: MIN, inFlight: 1 });
    const l = minuteDay(100, 1);
    expect(limiter.take('k', l, T0, true).outcome).toBe('allowed');
    const first = limiter.take('k', l, T0, true);
    expect(first.report.reset).toBe(Date.UTC(2026, 2, 11) / 1000);
    expect(limiter.take('k', l, T0 + 3 * 3_600_000, true).outcome).toBe('limited');
    expect(limiter.take('k', l, T0 + 4 * 3_600_000, true).outcome).toBe('banned');
  });

  it('a clock set back before the wait began starts a new wait instead of counting on the old one', () => {
    const limiter = new RateLimiter({ after: 1, durationMs: MIN, inFlight: 1 });
    fillAndRefuse(limiter, T0 + 30_000);
    expect(limiter.take('k', limits, T0 + 31_000, true)).toMatchObject({ outcome: 'limited', ban: { counted: true, count: 1 } });
    // Set back: a new wait, whose first refusal is forgiven again.
    expect(limiter.take('k', limits, T0 + 10_000, true)).toMatchObject({ outcome: 'limited', ban: { counted: false, count: 0 } });
    expect(limiter.take('k', limits, T0 + 10_001, true).outcome).toBe('limited');
    expect(limiter.take('k', limits, T0 + 10_002, true).outcome).toBe('banned');
  });

  it('`after: 0` turns bans off', () => {
    const limiter = new RateLimiter(noBan);
    fillAndRefuse(limiter, T0);
    for (let i = 0; i < 100; i++) limiter.take('k', limits, T0 + 2000 + i, true);
    expect(limiter.take('k', limits, T0 + 30_000, true)).toMatchObject({ outcome: 'limited', ban: { counted: false, why: 'bans are off (ban.after is 0)' } });
  });

  it('ends bans on a whole second so Reset and Retry-After agree', () => {
    const limiter = new RateLimiter({ after: 1, durationMs: 1500, inFlight: 1 });
    const now = T0 + 250;
    const GRACE = 2000;
    fillAndRefuse(limiter, now);
    limiter.take('k', limits, now + GRACE, true);
    const banned = limiter.take('k', limits, now + GRACE, true);
    expect(banned.outcome).toBe('banned');
    if (banned.outcome !== 'banned') return;
    expect(banned.bannedUntil % 1000).toBe(0);
    expect(banned.report.retryAfter).toBe(banned.report.reset - Math.floor((now + GRACE) / 1000));
  });
});
