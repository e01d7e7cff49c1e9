// Snapshots on shared state: a session on Redis taken through a generated history gives the
// document the memory home gives for the same history, and a memory session restored from it
// answers on as the Redis session does, byte for byte, headers included. Redis keeps real time
// itself (the shared handler takes no `now`), so the session clocks stay frozen here: the actions
// that move real time or unfreeze a clock are left out of the histories.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, type MockFetchHandler, type SharedFetchHandler } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { TestRedis, redisAvailable } from '../support/redis.js';
import { action, comparableJournal, play, scenarioFile, seenOf, type Action, type Seen, type Target } from '../property/snapshot-history.js';
import type { SnapshotDocument } from '../../src/core/state/snapshot.js';

const run = redisAvailable();
const FILE = scenarioFile();
const START = T0 + 30_000;
/** Only what a frozen clock allows: no real time passing, no unfreezing. */
const frozenAction: fc.Arbitrary<Action> = action.filter((a) => a.op !== 'real' && a.op !== 'unfreeze' && a.op !== 'freeze');

type Handler = MockFetchHandler | SharedFetchHandler;

function target(handler: Handler, session: string): Target {
  const s = handler.session(session);
  return {
    send: async (method, path, headers, body) =>
      seenOf(await handler(new Request(`http://mock.test${path}`, { method, headers: { ...headers, 'x-mock-session': session }, body }))),
    clock: s.clock,
    recordDetails: (on) => s.recordDetails(on),
    moveReal: () => undefined,
    snapshot: () => s.snapshot(),
    restore: (doc) => s.restore(doc),
  };
}

/** A session on the history's scenario, its clock frozen at START. */
async function prepare(handler: Handler, session: string): Promise<void> {
  const s = handler.session(session);
  await s.useScenario(FILE);
  await s.clock.freeze();
  await s.clock.set(START);
}

/** A document without when it was taken, the session it names, and the journal's wall times (real time, which Redis keeps). */
function comparableDoc(doc: SnapshotDocument): unknown {
  const { takenAt: _at, session: _session, journal, ...rest } = doc;
  const entries = comparableJournal(journal.entries.map((e) => ({ ...e, session: '', realAt: '' })));
  const text = JSON.stringify({ ...rest, journal: { ...journal, entries } });
  return JSON.parse(text.replace(/("x-mock-session":)"[^"]*"/gi, '$1"(session)"')) as unknown;
}

describe.skipIf(!run)('snapshots of sessions on Redis', () => {
  let redis: TestRedis;
  let shared: SharedFetchHandler;
  let memory: MockFetchHandler;
  beforeAll(async () => {
    redis = await TestRedis.start();
    shared = createFetchHandler({ state: redis.url, statePrefix: 'snap' });
    memory = createFetchHandler({ now: () => T0 });
  });
  afterAll(async () => {
    await shared?.close();
    await redis?.stop();
  });

  it('after any history, the document the memory home writes; restored in the other home either way, it answers on alike', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(frozenAction, { maxLength: 30 }), fc.array(frozenAction, { minLength: 1, maxLength: 15 }), async (history, next) => {
        const id = `s${run++}`;
        await prepare(shared, id);
        await prepare(memory, id);
        await play(target(shared, id), history);
        await play(target(memory, id), history);

        const onRedis = await shared.session(id).snapshot();
        expect(onRedis.session).toBe(id);
        expect(comparableDoc(onRedis)).toEqual(comparableDoc(memory.session(id).snapshot()));

        // Each way: through JSON, as a file or an HTTP body carries it.
        memory.session(`${id}-copy`).restore(JSON.parse(JSON.stringify(onRedis)) as object);
        await shared.session(`${id}-back`).restore(JSON.parse(JSON.stringify(memory.session(id).snapshot())) as object);
        expect(comparableDoc(await shared.session(`${id}-back`).snapshot())).toEqual(comparableDoc(onRedis));

        const expected = await play(target(shared, id), next);
        const rename = (seen: Seen[]): Seen[] =>
          seen.map((s) => ({ ...s, headers: s.headers.map(([n, v]) => [n, n === 'x-mock-session' ? id : v] as [string, string]) }));
        expect(rename(await play(target(memory, `${id}-copy`), next))).toEqual(expected);
        expect(rename(await play(target(shared, `${id}-back`), next))).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('a session never used is the one it would start as, and looking creates nothing', async () => {
    const doc = await shared.session('never-used').snapshot();
    // Its clock runs on real time, which the memory handler here holds still: the rest compares.
    const running = (d: SnapshotDocument): unknown => comparableDoc({ ...d, clock: { ...d.clock, now: '' } });
    expect(running(doc)).toEqual(running(memory.session('never-used').snapshot()));
    expect(doc.clock).toEqual({ now: expect.any(String) as string, frozen: false, offsetMs: 0 });
    expect(redis.cli('EXISTS', '{snap}:s:never-used')).toBe('0');
  });
});
