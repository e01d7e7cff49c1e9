// The node:http adapter ends the answers of one turn of the event loop together (end-of-turn.ts),
// once a turn has answered more than one request; after a turn of one, answers end at once.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endThisTurn } from '../../src/http/end-of-turn.js';

type Ended = { body?: string; encoding?: string };

function fakeResponse(log: string[], name: string, opts: { destroyed?: boolean; throws?: boolean; queued?: boolean } = {}) {
  const res = {
    // Node gives a pipelined answer its socket only once the answers before it are written.
    socket: opts.queued === true ? null : {},
    destroyed: opts.destroyed === true,
    ended: undefined as Ended | undefined,
    destroyedByUs: false,
    end(body?: string, encoding?: string) {
      if (opts.throws) throw new Error('write after a broken pipe');
      log.push(name);
      res.ended = { body, encoding };
    },
    destroy() {
      res.destroyedByUs = true;
    },
  };
  return res;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Hands over `count` answers in one turn and lets it end: the turns after it batch when count > 1. */
async function turnOf(count: number): Promise<void> {
  for (let i = 0; i < count; i++) endThisTurn(fakeResponse([], `warm-${i}`) as unknown as ServerResponse, '{}', 'latin1');
  await nextTurn();
}

describe('answers ended at the end of the turn', () => {
  afterEach(() => vi.useRealTimers());

  it('after a turn of several answers, ends nothing at once, then every answer of the turn in the order given, with its body and encoding', async () => {
    await turnOf(2);
    const log: string[] = [];
    const a = fakeResponse(log, 'a');
    const b = fakeResponse(log, 'b');
    const c = fakeResponse(log, 'c');
    endThisTurn(a as unknown as ServerResponse, '[1]', 'latin1');
    endThisTurn(b as unknown as ServerResponse, undefined, 'latin1');
    endThisTurn(c as unknown as ServerResponse, '"é"', 'utf8');
    await Promise.resolve();
    expect(log).toEqual([]);
    await nextTurn();
    expect(log).toEqual(['a', 'b', 'c']);
    expect(a.ended).toEqual({ body: '[1]', encoding: 'latin1' });
    expect(b.ended).toEqual({ body: undefined, encoding: undefined });
    expect(c.ended).toEqual({ body: '"é"', encoding: 'utf8' });
  });

  it('skips an answer whose connection closed meanwhile, and one that fails does not keep the others from theirs', async () => {
    await turnOf(2);
    const log: string[] = [];
    const gone = fakeResponse(log, 'gone', { destroyed: true });
    const broken = fakeResponse(log, 'broken', { throws: true });
    const fine = fakeResponse(log, 'fine');
    for (const res of [gone, broken, fine]) endThisTurn(res as unknown as ServerResponse, '{}', 'latin1');
    await nextTurn();
    expect(log).toEqual(['fine']);
    expect(broken.destroyedByUs).toBe(true);
    expect(gone.ended).toBeUndefined();
  });

  it('ends answers at once after a turn that answered one (a client sending one request at a time), and batches again after a turn of several', async () => {
    await turnOf(2);
    const log: string[] = [];
    endThisTurn(fakeResponse(log, 'alone') as unknown as ServerResponse, '{}', 'latin1');
    expect(log).toEqual([]);
    await nextTurn();
    expect(log).toEqual(['alone']);
    endThisTurn(fakeResponse(log, 'at-once') as unknown as ServerResponse, '{}', 'latin1');
    expect(log).toEqual(['alone', 'at-once']);
    await nextTurn();
    // A turn that answers two while not batching ends both at once, and the next turn batches.
    endThisTurn(fakeResponse(log, 'x') as unknown as ServerResponse, '{}', 'latin1');
    endThisTurn(fakeResponse(log, 'y') as unknown as ServerResponse, '{}', 'latin1');
    expect(log).toEqual(['alone', 'at-once', 'x', 'y']);
    await nextTurn();
    endThisTurn(fakeResponse(log, 'waits') as unknown as ServerResponse, '{}', 'latin1');
    expect(log).toEqual(['alone', 'at-once', 'x', 'y']);
    await nextTurn();
    expect(log).toEqual(['alone', 'at-once', 'x', 'y', 'waits']);
  });

  it('ends at once an answer pipelined behind one its connection still owes, so Node counts its bytes and stops reading', async () => {
    await turnOf(2);
    const log: string[] = [];
    endThisTurn(fakeResponse(log, 'owed') as unknown as ServerResponse, '{}', 'latin1');
    endThisTurn(fakeResponse(log, 'queued', { queued: true }) as unknown as ServerResponse, '{}', 'latin1');
    expect(log).toEqual(['queued']);
    await nextTurn();
    expect(log).toEqual(['queued', 'owed']);
  });

  it('is not held back by fake timers a test installs', async () => {
    await turnOf(2);
    const log: string[] = [];
    vi.useFakeTimers();
    endThisTurn(fakeResponse(log, 'a') as unknown as ServerResponse, '{}', 'latin1');
    vi.useRealTimers();
    await nextTurn();
    expect(log).toEqual(['a']);
  });
});
