import { describe, expect, it } from 'vitest';
import { RateLimiter, type RateDecision } from '../../src/core/state/limiter.js';
import { limitsText, parseWindows, windowName, windowsProblem } from '../../src/core/state/windows.js';

// 2026-03-10T12:00:00Z: a whole hour, mid-day; every window below starts at T0.
const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);
const SECOND = 1_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const MIDNIGHT = Date.UTC(2026, 2, 11);
const noBan = { after: 0, durationMs: 0 };

/** Takes `n` requests at `at` and returns the last decision. */
function takeN(limiter: RateLimiter, windows: string[], at: number, n: number): RateDecision {
  let last: RateDecision | undefined;
  for (let i = 0; i < n; i++) last = limiter.take('k', parseWindows(windows), at, true);
  if (!last) throw new Error('took nothing');
  return last;
}

describe('windows as data: one window of each unit', () => {
  it.each([
    ['3/s', 'second', T0 + 250, T0 + SECOND],
    ['3/m', 'minute', T0 + 10_000, T0 + MINUTE],
    ['3/h', 'hour', T0 + 10_000, T0 + HOUR],
    ['3/d', 'day', T0, MIDNIGHT],
  ])('%s lets 3 through, refuses the 4th as the %s with Retry-After to its clock-aligned end, and lets through again there', (text, name, at, end) => {
    const limiter = new RateLimiter(noBan);
    const third = takeN(limiter, [text], at, 3);
    expect(third).toEqual({ outcome: 'allowed', report: { limit: 3, remaining: 0, reset: end / 1000 } });
    const refused = limiter.take('k', parseWindows([text]), at, true);
    expect(refused).toMatchObject({ outcome: 'limited', window: name });
    expect(refused.report).toEqual({ limit: 3, remaining: 0, reset: end / 1000, retryAfter: Math.ceil((end - at) / 1000) });
    expect(limiter.take('k', parseWindows([text]), end - 1, true).outcome).toBe('limited');
    expect(limiter.take('k', parseWindows([text]), end, true).outcome).toBe('allowed');
  });
});

describe('windows as data: several windows', () => {
  it.each([
    // windows, requests at T0, the report of the last one
    ['fewest left: the second', ['2/s', '10/m', '100/h'], 1, { limit: 2, remaining: 1, reset: (T0 + SECOND) / 1000 }],
    ['fewest left: the hour', ['50/s', '10/m', '5/h'], 2, { limit: 5, remaining: 3, reset: (T0 + HOUR) / 1000 }],
    ['a tie: the later reset (the minute over the second)', ['5/s', '5/m'], 1, { limit: 5, remaining: 4, reset: (T0 + MINUTE) / 1000 }],
    ['a tie of three: the later reset (the day)', ['4/s', '4/h', '4/d'], 2, { limit: 4, remaining: 2, reset: MIDNIGHT / 1000 }],
    ['one window left among full ones is never reported over a full one', ['2/s', '3/m', '9/d'], 2, { limit: 2, remaining: 0, reset: (T0 + SECOND) / 1000 }],
  ])('X-RateLimit-* describe the window with the fewest left, %s', (_what, windows, n, expected) => {
    expect(takeN(new RateLimiter(noBan), windows, T0, n).report).toEqual(expected);
  });

  it.each([
    ['only the second full', ['1/s', '5/m', '5/h'], 'second', T0 + SECOND],
    ['the second and the minute full: the minute resets later', ['1/s', '1/m', '5/h'], 'minute', T0 + MINUTE],
    ['all three full: the latest reset', ['1/s', '1/m', '1/h'], 'hour', T0 + HOUR],
    ['the day full under a free second', ['5/s', '1/d'], 'day', MIDNIGHT],
  ])('a 429 names the refusing window and its Retry-After runs to its reset: %s', (_what, windows, name, reset) => {
    const limiter = new RateLimiter(noBan);
    limiter.take('k', parseWindows(windows), T0, true);
    const refused = limiter.take('k', parseWindows(windows), T0 + 100, true);
    expect(refused).toMatchObject({ outcome: 'limited', window: name });
    expect(refused.report).toEqual({ limit: 1, remaining: 0, reset: reset / 1000, retryAfter: Math.ceil((reset - T0 - 100) / 1000) });
  });

  it('a request must fit every window, and a refused one consumes nothing in any', () => {
    const limiter = new RateLimiter(noBan);
    const windows = ['1/s', '3/m', '4/h'];
    expect(takeN(limiter, windows, T0, 1).outcome).toBe('allowed');
    // Refused by the second: neither the minute nor the hour counts them.
    for (let i = 0; i < 5; i++) expect(takeN(limiter, windows, T0 + 10, 1)).toMatchObject({ outcome: 'limited', window: 'second' });
    expect(takeN(limiter, windows, T0 + SECOND, 1).outcome).toBe('allowed');
    expect(takeN(limiter, windows, T0 + 2 * SECOND, 1).report).toEqual({ limit: 3, remaining: 0, reset: (T0 + MINUTE) / 1000 });
    expect(takeN(limiter, windows, T0 + 3 * SECOND, 1)).toMatchObject({ outcome: 'limited', window: 'minute' });
    // The next minute: the hour has one left (3 counted), and it is the one reported.
    expect(takeN(limiter, windows, T0 + MINUTE, 1).report).toEqual({ limit: 4, remaining: 0, reset: (T0 + HOUR) / 1000 });
    expect(takeN(limiter, windows, T0 + MINUTE + SECOND, 1)).toMatchObject({ outcome: 'limited', window: 'hour' });
  });

  it('a forced 429 is refunded in every window', () => {
    const limiter = new RateLimiter(noBan);
    const windows = ['2/s', '2/m', '2/h'];
    takeN(limiter, windows, T0, 1);
    limiter.refund('k', T0);
    expect(takeN(limiter, windows, T0, 2).report.remaining).toBe(0);
    expect(limiter.export()[0]?.windows.map((w) => w.count)).toEqual([2, 2, 2]);
  });

  it('bans as before: the wait runs to the reset of the refusing window', () => {
    const limiter = new RateLimiter({ after: 1, durationMs: 5 * MINUTE, inFlight: 1 });
    const windows = ['1/s', '100/d'];
    takeN(limiter, windows, T0, 1);
    expect(takeN(limiter, windows, T0, 1)).toMatchObject({ outcome: 'limited', window: 'second', ban: { counted: false } });
    expect(takeN(limiter, windows, T0 + 500, 1)).toMatchObject({ outcome: 'limited', ban: { counted: true, count: 1 } });
    expect(takeN(limiter, windows, T0 + 600, 1)).toMatchObject({ outcome: 'banned', justBanned: true, bannedUntil: T0 + 5 * MINUTE + SECOND });
  });

  it('exports every window of a bucket and restores it to the same decisions', () => {
    const windows = ['2/s', '3/m', '10/h', '50/d'];
    const limiter = new RateLimiter(noBan);
    takeN(limiter, windows, T0 + 1500, 2);
    const exported = limiter.export();
    expect(exported[0]?.windows).toEqual([
      { lengthMs: SECOND, index: (T0 + SECOND) / SECOND, count: 2 },
      { lengthMs: MINUTE, index: T0 / MINUTE, count: 2 },
      { lengthMs: HOUR, index: T0 / HOUR, count: 2 },
      { lengthMs: 86_400_000, index: Math.floor(T0 / 86_400_000), count: 2 },
    ]);
    const copy = new RateLimiter(noBan);
    copy.restoreBuckets(exported);
    for (const at of [T0 + 1500, T0 + 2000, T0 + 2001, T0 + 2002]) expect(takeN(copy, windows, at, 1)).toEqual(takeN(limiter, windows, at, 1));
  });

  it('a key given a new window keeps the counts of the windows it had', () => {
    const limiter = new RateLimiter(noBan);
    takeN(limiter, ['5/m', '50/d'], T0, 4);
    // The second and the minute both have none left: the minute resets later.
    expect(takeN(limiter, ['1/s', '5/m', '50/d'], T0 + 10, 1).report).toEqual({ limit: 5, remaining: 0, reset: (T0 + MINUTE) / 1000 });
    expect(takeN(limiter, ['1/s', '5/m', '50/d'], T0 + SECOND, 1)).toMatchObject({ outcome: 'limited', window: 'minute' });
  });
});

describe('window texts', () => {
  it.each([
    [
      ['100000/d', '10/s', '600/m'],
      ['10/s', '600/m', '100000/d'],
    ],
    [['5/h'], ['5/h']],
  ])('%j reads shortest first as %j', (texts, shown) => {
    expect(windowsProblem(texts)).toBeUndefined();
    expect(limitsText(parseWindows(texts))).toEqual(shown);
  });

  it.each([
    [[], /at least one window/],
    [['10/w'], /the unit "w"; the units are s, m, h and d/],
    [['0/m'], /allows no request/],
    [['10/m', '20/m'], /the unit "m" is given twice/],
    [['10 / m'], /is not a window/],
    [['1e3/m'], /is not a window/],
    [['-1/m'], /is not a window/],
  ])('%j is refused', (texts, message) => {
    expect(windowsProblem(texts)).toMatch(message);
  });

  it('names the windows the journal names, and any other length by its milliseconds', () => {
    expect([1_000, 60_000, 3_600_000, 86_400_000, 90_000].map(windowName)).toEqual(['second', 'minute', 'hour', 'day', '90000ms']);
  });
});
