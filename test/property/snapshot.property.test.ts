// A restored session answers exactly as its source would have: sessions are taken through
// generated histories, snapshotted, restored into another session and into another mock (with
// other defaults), and the next answers compared byte for byte, headers included. Real time is a
// controlled source shared by every mock, so running clocks compare exactly too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFetchHandler, type MockFetchHandler } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { action, comparableJournal, play, scenarioFile, seenOf, type Seen, type Target } from './snapshot-history.js';

const FILE = scenarioFile();
let real = T0;
const now = (): number => real;

function target(handler: MockFetchHandler, session: string): Target {
  const s = handler.session(session);
  return {
    send: async (method, path, headers, body) =>
      seenOf(await handler(new Request(`http://mock.test${path}`, { method, headers: { ...headers, 'x-mock-session': session }, body }))),
    clock: s.clock,
    recordDetails: (on) => s.recordDetails(on),
    moveReal: (ms) => {
      real += ms;
    },
    snapshot: () => s.snapshot(),
    restore: (doc) => s.restore(doc),
  };
}

/** The answers of a session named otherwise, as the source's would read: only `X-Mock-Session` names the session. */
function renamed(seen: Seen[], from: string, to: string): Seen[] {
  return seen.map((s) => ({ ...s, headers: s.headers.map(([n, v]) => [n, n === 'x-mock-session' && v === from ? to : v] as [string, string]) }));
}

/**
 * A snapshot without what names its session (the recorded `X-Mock-Session` headers too) or when it
 * was taken, and without the wall times of its journal.
 */
function state(handler: MockFetchHandler, session: string): unknown {
  const { takenAt: _at, session: _session, journal, ...rest } = handler.session(session).snapshot();
  const text = JSON.stringify({ ...rest, journal: { ...journal, entries: comparableJournal(journal.entries.map((e) => ({ ...e, session: '' }))) } });
  return JSON.parse(text.replace(/("x-mock-session":)"[^"]*"/gi, '$1"(session)"')) as unknown;
}

describe('a restored session answers as its source would have', () => {
  it('after any history, in another session and in another mock, byte for byte', async () => {
    const source = createFetchHandler({ now });
    // Other defaults: the snapshot carries the store, keys and scenario, not a path or the flags.
    const other = createFetchHandler({ now, seed: 7, pets: 3, keys: ['tiny:pro'] });
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(action, { maxLength: 40 }), fc.array(action, { minLength: 1, maxLength: 20 }), async (frozen, history, next) => {
        real = T0;
        for (const h of [source, other]) for (const id of ['src', 'dst']) h.session(id).useScenario(FILE);
        const src = source.session('src');
        src.clock.set(T0 + 30_000);
        if (frozen) src.clock.freeze();
        await play(target(source, 'src'), history);

        // Through JSON, as a file or an HTTP body carries it.
        const snapshot: unknown = JSON.parse(JSON.stringify(src.snapshot()));
        const at = real;
        source.session('dst').restore(snapshot as object);
        other.session('src').restore(snapshot as object);
        const before = state(source, 'src');
        expect(state(source, 'dst')).toEqual(before);
        expect(state(other, 'src')).toEqual(before);

        const expected = await play(target(source, 'src'), next);
        real = at;
        const inSession = await play(target(source, 'dst'), next);
        real = at;
        const inOther = await play(target(other, 'src'), next);
        expect(renamed(inSession, 'dst', 'src')).toEqual(expected);
        expect(inOther).toEqual(expected);
        // And they go on alike: store, windows, bans, clock, scenario position, journal.
        const after = state(source, 'src');
        expect(state(source, 'dst')).toEqual(after);
        expect(state(other, 'src')).toEqual(after);
      }),
      { numRuns: 40 },
    );
  });
});

describe('the histories reach what a snapshot must carry', () => {
  it('a ban running, both windows spent, steps and chaos part-way, details recorded', async () => {
    real = T0;
    const handler = createFetchHandler({ now });
    const s = handler.session('h');
    s.useScenario(FILE);
    s.clock.set(T0);
    s.clock.freeze();
    const history = [
      { op: 'details', on: true },
      { op: 'create', key: 'demo-pro', name: 'Rex', categoryId: '9223372036854775807' },
      { op: 'create', key: 'demo-pro', name: 'Tom', categoryId: '1' },
      { op: 'list', key: 'demo-pro', limit: 5 },
      { op: 'spam', key: 'tiny', n: 4 },
      { op: 'advance', ms: 60_000 },
      { op: 'spam', key: 'tiny', n: 4 },
      { op: 'advance', ms: 60_000 },
      // The day's 9th request, then refusals of the day window until the key is banned.
      { op: 'spam', key: 'tiny', n: 13 },
    ] as const;
    const seen = await play(target(handler, 'h'), history);
    expect(seen.at(-1)?.body).toContain('key_banned');
    const doc = s.snapshot();
    const tiny = doc.limits.find((b) => b.key === 'tiny');
    expect(tiny?.windows).toEqual([
      { window: '1m', start: new Date(T0 + 120_000).toISOString(), count: 1 },
      { window: '1d', start: '2026-03-10T00:00:00.000Z', count: 9 },
    ]);
    expect(tiny?.bannedUntil).toBe(new Date(T0 + 120_000 + 120_000).toISOString());
    expect(doc.scenario.position).toEqual(expect.objectContaining({ step: 1, taken: 0 }));
    expect(doc.scenario.position?.chaosState).not.toBe(7);
    expect(doc.store.created).toEqual([
      { id: 51, name: 'Rex', categoryId: '9223372036854775807' },
      { id: 52, name: 'Tom', categoryId: 1 },
    ]);
    expect(doc.journal.details).toBe(true);
    expect(doc.journal.entries[0]?.details).toBeDefined();

    const copy = createFetchHandler({ now });
    copy.session('h').restore(JSON.parse(JSON.stringify(doc)) as object);
    const probe = [
      { op: 'spam', key: 'tiny', n: 1 },
      { op: 'create', key: 'demo-pro', name: 'Third', categoryId: '2' },
    ] as const;
    const expected = await play(target(handler, 'h'), probe);
    expect(expected[0]?.headers).toContainEqual(['retry-after', '120']);
    expect(expected[1]?.status).toBe(503);
    expect(await play(target(copy, 'h'), probe)).toEqual(expected);
  });
});
