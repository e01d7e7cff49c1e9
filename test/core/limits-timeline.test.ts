import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/core/state/journal.js';
import { limitsTimeline } from '../../src/core/state/limits-timeline.js';
import { minuteDay, parseWindows } from '../../src/core/state/windows.js';

let seq = 0;
function entry(at: string, status: number, code?: string, extra: Partial<JournalEntry> & { ban?: unknown } = {}): JournalEntry {
  return {
    seq: ++seq,
    at,
    session: 'default',
    method: 'GET',
    path: '/v1/pets',
    query: '',
    status,
    reason: '',
    key: 'qa-k…key',
    durationMs: 0,
    ...(code ? { code } : {}),
    ...extra,
  };
}

describe('the timeline of a key the admin page charts', () => {
  it('places each request on the session clock by what it got, with the quota left in its minute and its day', () => {
    seq = 0;
    const { points, windows } = limitsTimeline(
      [
        entry('2026-03-10T12:00:00.000Z', 200),
        entry('2026-03-10T12:00:05.000Z', 404, 'pet_not_found'),
        entry('2026-03-10T12:00:10.000Z', 401, 'invalid_api_key'),
        entry('2026-03-10T12:00:15.000Z', 201, undefined, { method: 'POST' }),
        entry('2026-03-10T12:00:20.000Z', 429, 'rate_limited'),
        entry('2026-03-10T12:00:25.000Z', 429, 'rate_limited', { ban: { counted: true, count: 1, after: 3 } }),
        entry('2026-03-10T12:00:30.000Z', 429, 'key_banned'),
        entry('2026-03-10T12:00:30.000Z', 204, undefined, { method: 'OPTIONS' }),
        entry('2026-03-10T12:01:02.000Z', 200),
      ],
      minuteDay(3, 10),
    );
    expect(points.map((p) => [p.seq, p.kind, ...p.left])).toEqual([
      [1, 'ok', 2, 9],
      [2, 'error', 1, 8],
      [3, 'error', 1, 8],
      [4, 'ok', 0, 7],
      [5, 'refused', 0, 7],
      [6, 'counted', 0, 7],
      [7, 'banned', 0, 7],
      [9, 'ok', 2, 6],
    ]);
    expect(points[0]?.at).toBe(Date.UTC(2026, 2, 10, 12, 0, 0));
    expect(windows).toEqual([
      { start: Date.UTC(2026, 2, 10, 12, 0), used: 3, left: 0, refused: 1, counted: 1, banned: 1 },
      { start: Date.UTC(2026, 2, 10, 12, 1), used: 1, left: 2, refused: 0, counted: 0, banned: 0 },
    ]);
  });

  it('a new UTC day starts a fresh day quota', () => {
    const { points } = limitsTimeline([entry('2026-03-10T23:59:59.000Z', 200), entry('2026-03-11T00:00:00.000Z', 200)], minuteDay(5, 2));
    expect(points.map((p) => p.left)).toEqual([
      [4, 1],
      [4, 1],
    ]);
  });

  it('follows every window of a key with seconds and hours, listing the stretches of its shortest', () => {
    const { points, windows, lengthMs } = limitsTimeline(
      [
        entry('2026-03-10T12:00:00.100Z', 200),
        entry('2026-03-10T12:00:00.200Z', 200),
        entry('2026-03-10T12:00:00.300Z', 429, 'rate_limited'),
        entry('2026-03-10T12:00:01.000Z', 200),
        entry('2026-03-10T13:00:00.000Z', 200),
      ],
      parseWindows(['2/s', '30/m', '4/h']),
    );
    expect(lengthMs).toBe(1000);
    expect(points.map((p) => p.left)).toEqual([
      [1, 29, 3],
      [0, 28, 2],
      [0, 28, 2],
      [1, 27, 1],
      [1, 29, 3],
    ]);
    expect(windows.map((w) => [w.start - Date.UTC(2026, 2, 10, 12), w.used, w.left, w.refused])).toEqual([
      [0, 2, 0, 1],
      [1000, 1, 1, 0],
      [3_600_000, 1, 1, 0],
    ]);
  });
});
