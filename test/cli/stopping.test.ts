// The command's stop as a function of what asks for it and when (the real signals: test/e2e/cli-stop-signals.test.ts).
import { describe, expect, it } from 'vitest';
import { SAME_STOP_MS, stopOnSignals, type StopCause } from '../../src/cli/stopping.js';
import type { CloseOptions } from '../../src/mock-options.js';

function harness() {
  let clock = 0;
  const closes: CloseOptions[] = [];
  const lines: string[] = [];
  const exits: number[] = [];
  let finish: () => void = () => undefined;
  const close = (options: CloseOptions): Promise<void> => {
    closes.push(options);
    return new Promise((resolve) => (finish = resolve));
  };
  const stop = stopOnSignals(close, { lameDuckTime: 3, drainTime: 5, log: (line) => lines.push(line), exit: (code) => exits.push(code), now: () => clock });
  return {
    stop,
    closes,
    lines,
    exits,
    later: (ms: number) => (clock += ms),
    finish: async () => {
      finish();
      await Promise.resolve();
      await Promise.resolve();
    },
  };
}

describe('stopOnSignals', () => {
  it('the first signal closes once, with its lame duck; the exit follows the close', async () => {
    const h = harness();
    h.stop(3, 'SIGTERM');
    expect(h.closes).toHaveLength(1);
    expect(h.closes[0]?.lameDuck).toBe(3);
    expect(h.exits).toEqual([]);
    await h.finish();
    expect(h.exits).toEqual([0]);
  });

  it.each<[StopCause, number]>([
    ['SIGTERM', 0],
    ['SIGTERM', SAME_STOP_MS - 1],
    ['launcher', 0],
    ['launcher', 60_000],
  ])('%s again %i ms later is the same stop: nothing is cut', (again, ms) => {
    const h = harness();
    h.stop(3, 'SIGTERM');
    h.later(ms);
    h.stop(again === 'SIGTERM' ? 3 : 0, again);
    expect(h.closes).toHaveLength(1);
    expect(h.closes[0]?.signal?.aborted).toBe(false);
    expect(h.lines).toEqual([]);
    expect(h.exits).toEqual([]);
  });

  it.each<[StopCause, StopCause, number]>([
    ['SIGTERM', 'SIGTERM', SAME_STOP_MS],
    ['SIGTERM', 'SIGINT', 0],
    ['SIGINT', 'SIGTERM', 10],
    ['launcher', 'SIGTERM', 0],
  ])('%s then %s %i ms later hurries the close; the exit still waits for it (the export)', async (first, second, ms) => {
    const h = harness();
    h.stop(0, first);
    h.later(ms);
    h.stop(0, second);
    expect(h.closes).toHaveLength(1);
    expect(h.closes[0]?.signal?.aborted).toBe(true);
    expect(h.lines.at(-1)).toContain('a second signal: cutting the lame duck and the drain short');
    expect(h.exits).toEqual([]);
    await h.finish();
    expect(h.exits).toEqual([0]);
  });

  it('a close that fails (the export could not be written) is said, and exits 1', async () => {
    const lines: string[] = [];
    const exits: number[] = [];
    const stop = stopOnSignals(() => Promise.reject(new Error('disk full')), {
      lameDuckTime: 0,
      drainTime: 0,
      log: (l) => lines.push(l),
      exit: (c) => exits.push(c),
    });
    stop(0, 'SIGINT');
    await new Promise((resolve) => setImmediate(resolve));
    expect(exits).toEqual([1]);
    expect(lines).toEqual(['petstore-mock: failed while stopping: disk full\n']);
  });
});
