import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../src/core/journal.js';
import { DEFAULT_LINES_PER_SECOND, createRequestLogger } from '../src/log.js';

function entry(seq: number, status = 200): JournalEntry {
  return { seq, at: '2026-03-10T12:00:00.000Z', session: 'default', method: 'GET', path: '/v1/pets', query: 'limit=1', status, reason: 'listed animals (limit 1)', key: 'demo…ree', durationMs: 0.05 };
}

/** A logger on a hand-moved clock, with its timers held until the test fires them. */
function harness(format: 'pretty' | 'json', linesPerSecond = 3) {
  let now = 1_000_400;
  const timers: { fn: () => void; at: number }[] = [];
  const written: string[] = [];
  const log = createRequestLogger(format, (text) => written.push(text), { linesPerSecond, now: () => now, setTimer: (fn, ms) => timers.push({ fn, at: now + ms }) });
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    log,
    lines: () => written.join('').split('\n').filter(Boolean),
    writes: () => written.length,
    advance: (ms: number) => {
      now += ms;
      for (const t of timers.splice(0)) if (t.at <= now) t.fn(); else timers.push(t);
    },
    turn,
    timers: () => timers.length,
  };
}

describe('the request log', () => {
  it('prints one pretty line per request, written once per event-loop turn', async () => {
    const h = harness('pretty');
    h.log(entry(1));
    h.log({ ...entry(2, 404), path: '/v1/pets/999', query: '', code: 'pet_not_found', reason: 'No animal has id 999.' });
    expect(h.writes()).toBe(0);
    await h.turn();
    expect(h.writes()).toBe(1);
    expect(h.lines()).toEqual([
      '2026-03-10T12:00:00.000Z GET /v1/pets?limit=1 -> 200 key=demo…ree 0.05ms',
      '2026-03-10T12:00:00.000Z GET /v1/pets/999 -> 404 key=demo…ree 0.05ms (pet_not_found: No animal has id 999.)',
    ]);
  });

  it('past the lines of a second, counts the rest and sums them up when the second is over', async () => {
    const h = harness('pretty', 3);
    for (let i = 1; i <= 10; i++) h.log(entry(i, i % 5 === 0 ? 429 : 200));
    await h.turn();
    expect(h.lines()).toHaveLength(3);
    expect(h.timers()).toBe(1);
    h.advance(1000);
    await h.turn();
    expect(h.lines()).toHaveLength(4);
    expect(h.lines()[3]).toBe('… 7 more requests in that second not shown (200 ×5, 429 ×2); GET /__admin/requests lists the latest');
  });

  it('sums up a busy second as soon as the next second brings a request, and prints that one in full', async () => {
    const h = harness('json', 2);
    for (let i = 1; i <= 5; i++) h.log(entry(i));
    h.advance(1000);
    h.log(entry(6, 201));
    await h.turn();
    const lines = h.lines().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.msg)).toEqual(['request', 'request', 'requests not shown', 'request']);
    expect(lines[2]).toEqual({ level: 'info', msg: 'requests not shown', count: 3, statuses: { 200: 3 } });
    expect(lines[3]).toMatchObject({ level: 'info', msg: 'request', seq: 6, status: 201 });
    h.advance(1000);
    await h.turn();
    expect(h.lines()).toHaveLength(4);
  });

  it('prints every request of a quiet second, second after second', async () => {
    const h = harness('pretty', 3);
    for (let s = 0; s < 4; s++) {
      for (let i = 0; i < 3; i++) h.log(entry(s * 3 + i + 1));
      h.advance(1000);
    }
    await h.turn();
    expect(h.lines()).toHaveLength(12);
    expect(h.lines().some((l) => l.includes('not shown'))).toBe(false);
  });

  it('prints a hundred lines a second by default', () => {
    expect(DEFAULT_LINES_PER_SECOND).toBe(100);
  });
});
