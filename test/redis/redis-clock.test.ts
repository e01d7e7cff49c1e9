// The deadline a call carries is never later than Redis's own time a quarter of the timeout before
// the replica gives up on the call (that quarter is left for the answer), whatever the round trips
// the readings came with.
import { describe, expect, it } from 'vitest';
import { RedisClock } from '../../src/state-redis/redis-clock.js';

describe('what a replica knows of Redis time', () => {
  it('gives no deadline before any reading', () => {
    expect(new RedisClock().deadline(0, 1000)).toBeUndefined();
  });

  // Redis is 5,000,000 ms ahead of the replica's monotonic clock; each reading is taken somewhere
  // within its round trip (sent at `sent`, executed at `at`, received at `received`).
  it.each([
    { name: 'a quick round trip', readings: [{ sent: 100, at: 100.4, received: 101 }] },
    { name: 'a slow one, executed early', readings: [{ sent: 100, at: 101, received: 900 }] },
    { name: 'a slow one, executed late', readings: [{ sent: 100, at: 899, received: 900 }] },
    {
      name: 'several, the tightest kept',
      readings: [
        { sent: 100, at: 150, received: 400 },
        { sent: 500, at: 500.5, received: 501 },
        { sent: 600, at: 640, received: 900 },
      ],
    },
  ])('$name: the deadline is at or before Redis time when the answer has a quarter of the timeout left', ({ readings }) => {
    const ahead = 5_000_000;
    const clock = new RedisClock();
    for (const r of readings) clock.observe(Math.floor(r.at + ahead), r.received);
    for (const sentAt of [1000, 1234.5, 5000]) {
      const deadline = clock.deadline(sentAt, 1000) as number;
      // A quarter of the timeout is left for the answer to come back and be read.
      expect(deadline).toBeLessThanOrEqual(sentAt + 750 + ahead);
      // And not needlessly early: by at most the best reading's round trip and the margin.
      const best = Math.min(...readings.map((r) => r.received - r.sent));
      expect(deadline).toBeGreaterThanOrEqual(sentAt + 750 + ahead - best - 4);
    }
  });

  it('after another server answers, keeps giving deadlines from the old reading until a new one replaces it, even an earlier one', () => {
    const clock = new RedisClock();
    clock.observe(10_000, 0);
    clock.forget();
    expect(clock.deadline(100, 1000)).toBe(Math.floor(100 + 750 + 10_000) - 2);
    // The new server's clock is 3 ms behind: its reading replaces the old, tighter-looking one.
    clock.observe(9_997 + 200, 200);
    expect(clock.deadline(300, 1000)).toBe(Math.floor(300 + 750 + 9_997) - 2);
    // And from then on the tightest reading is kept again.
    clock.observe(9_990 + 400, 400);
    expect(clock.deadline(500, 1000)).toBe(Math.floor(500 + 750 + 9_997) - 2);
  });

  it('forgets a reading older than 10 s, so a clock that stepped back is followed', () => {
    const clock = new RedisClock();
    clock.observe(10_000, 0);
    clock.observe(5_000, 20_000);
    expect(clock.deadline(20_000, 1000)).toBeLessThanOrEqual(5_000 + 750);
  });
});
