// Snapshots and scenario objects over HTTP on shared state: a restore writes the whole session or
// nothing (a wrong document, a store past its bound), keeps the journal's bounds, and two
// replicas see the same restored session; a scenario object applies on one replica and the other
// answers by it. `--import` and `--export-on-exit` stay refused with `--state`, saying why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import type { SnapshotDocument } from '../../src/core/state/snapshot.js';
import { MAX_CREATED_PETS } from '../../src/core/state/store.js';
import { DEFAULT_JOURNAL_BYTES, type JournalEntry } from '../../src/core/state/journal.js';
import { adminCall, type ErrorJson } from '../support/admin.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();

describe.skipIf(!run)('snapshots and scenario objects on shared state, over HTTP', () => {
  let redis: TestRedis;
  let a: SharedRunningMock;
  let b: SharedRunningMock;
  beforeAll(async () => {
    redis = await TestRedis.start();
    a = await startMock({ state: redis.url, statePrefix: 'snap' });
    b = await startMock({ state: redis.url, statePrefix: 'snap' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  const snapshotOf = async (mock: SharedRunningMock, session: string): Promise<SnapshotDocument> =>
    (await adminCall<SnapshotDocument>(mock.origin, 'snapshot', { session })).json;
  const restore = (mock: SharedRunningMock, session: string, doc: unknown): ReturnType<typeof adminCall<ErrorJson>> =>
    adminCall<ErrorJson>(mock.origin, 'snapshot', { method: 'PUT', session, body: doc });
  const create = (mock: SharedRunningMock, session: string, name: string): Promise<Response> =>
    fetch(`${mock.origin}/v1/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json', 'x-mock-session': session },
      body: JSON.stringify({ name, categoryId: 1 }),
    });
  // Without what names the session or the instant it was taken at (journal entries name their session).
  const withoutTime = (doc: SnapshotDocument): unknown => ({
    ...doc,
    takenAt: '',
    session: '',
    journal: { ...doc.journal, entries: doc.journal.entries.map((e) => ({ ...e, session: '' })) },
  });

  it('removed ids answer as in memory: every page, status and fetch skips them, on either replica', async () => {
    const memory = await startMock();
    try {
      for (const mock of [a, memory]) {
        for (const status of ['sold', 'available', 'sold', undefined, 'pending', 'sold']) {
          const res = await fetch(`${mock.origin}/v1/pets`, {
            method: 'POST',
            headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json', 'x-mock-session': 'gone' },
            body: JSON.stringify({ name: `n-${status}`, categoryId: 1, status }),
          });
          expect(res.status).toBe(201);
        }
      }
      const doc = await snapshotOf(a, 'gone');
      const removed = [1, 2, 7, 40, 51, 53, 56];
      for (const mock of [a, memory])
        expect((await adminCall(mock.origin, 'snapshot', { method: 'PUT', session: 'gone', body: { ...doc, store: { ...doc.store, removed } } })).status).toBe(
          200,
        );
      const answers = async (mock: { origin: string }): Promise<unknown[]> => {
        const out: unknown[] = [];
        const paths = [1, 2, 3, 47, 48, 49, 50, 52, 53, 100].flatMap((limit) =>
          ['', '&status=sold', '&status=available'].map((q) => `/v1/pets?limit=${limit}${q}`),
        );
        for (const id of [1, 3, 51, 52, 53, 56, 57]) paths.push(`/v1/pets/${id}`);
        for (const path of paths) {
          const res = await fetch(`${mock.origin}${path}`, { headers: { authorization: 'Bearer demo-enterprise', 'x-mock-session': 'gone' } });
          out.push([path, res.status, await res.text()]);
        }
        return out;
      };
      const expected = await answers(memory);
      expect(await answers(a)).toEqual(expected);
      expect(await answers(b)).toEqual(expected);
      expect((await snapshotOf(b, 'gone')).store.removed).toEqual(removed);
    } finally {
      await memory.close();
    }
  });

  it('PUT /__admin/snapshot restores on one replica what the other took, and both answer by it', async () => {
    await adminCall(a.origin, 'clock', { session: 'src', body: { frozen: true, set: '2026-03-10T12:00:00Z' } });
    expect((await create(a, 'src', 'Rex')).status).toBe(201);
    const doc = await snapshotOf(a, 'src');
    const res = await restore(b, 'dst', doc);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ restored: true, session: 'dst', clock: { now: '2026-03-10T12:00:00.000Z', frozen: true } });
    expect(withoutTime(await snapshotOf(a, 'dst'))).toEqual(withoutTime(await snapshotOf(b, 'src')));
    const got = await fetch(`${a.origin}/v1/pets/${doc.store.created[0]?.id}`, { headers: { 'x-mock-session': 'dst', authorization: 'Bearer demo-pro' } });
    expect(await got.json()).toEqual({ id: doc.store.created[0]?.id, name: 'Rex', categoryId: 1 });
    expect((await (await create(b, 'dst', 'Tom')).json()) as object).toMatchObject({ id: doc.store.nextId });
  });

  it('a restore is atomic: requests of the session running meanwhile see the old state or the new, never half of each', async () => {
    const docs: SnapshotDocument[] = [];
    for (const [session, names, at] of [
      ['mk-a', ['A'], '2026-03-10T12:00:00Z'],
      ['mk-b', ['B1', 'B2', 'B3'], '2026-05-01T08:30:00Z'],
    ] as const) {
      await adminCall(a.origin, 'clock', { session, body: { frozen: true, set: at } });
      for (const name of names) await create(a, session, name);
      docs.push(await snapshotOf(a, session));
    }
    const seen = async (res: Response): Promise<string> => {
      const pets = (await res.json()) as { id: number; name: string }[];
      const created = pets.filter((p) => p.id > 50).map((p) => p.name);
      return `${created.join(',')} ${res.headers.get('date')}`;
    };
    const list = (mock: SharedRunningMock): Promise<string> =>
      fetch(`${mock.origin}/v1/pets?limit=100`, { headers: { 'x-mock-session': 'atom', authorization: 'Bearer demo-pro' } }).then(seen);
    await restore(a, 'atom', docs[0]);
    const states = new Set([await list(a)]);
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 12; i++) {
      work.push(restore(i % 2 === 0 ? a : b, 'atom', docs[(i + 1) % 2]));
      for (let j = 0; j < 4; j++) work.push(list(j % 2 === 0 ? b : a).then((s) => states.add(s)));
    }
    await Promise.all(work);
    await restore(b, 'atom', docs[1]);
    states.add(await list(b));
    expect([...states].sort()).toEqual(['A Tue, 10 Mar 2026 12:00:00 GMT', 'B1,B2,B3 Fri, 01 May 2026 08:30:00 GMT']);
  });

  it('a restore Redis starts after its deadline (the instance answered 503) changes nothing', async () => {
    const m = await startMock({ state: redis.url, statePrefix: 'snap', stateTimeoutMs: 300 });
    try {
      await adminCall(m.origin, 'clock', { session: 'late', body: { frozen: true, set: '2026-03-10T12:00:00Z' } });
      await create(m, 'late', 'Before');
      const before = await snapshotOf(m, 'late');
      const other = { ...before, store: { ...before.store, created: [] as SnapshotDocument['store']['created'], nextId: before.store.nextId - 1 } };
      // Restored once elsewhere: its settings are stored, so the paused call is the restore's own script.
      expect((await restore(m, 'late-other', other)).status).toBe(200);
      redis.pause();
      let status: number;
      try {
        status = (await restore(m, 'late', other)).status;
      } finally {
        redis.resume();
      }
      expect(status).toBe(503);
      // A call still in Redis's socket when it resumes runs past its deadline: the session is as it was.
      let after: SnapshotDocument | undefined;
      for (let i = 0; i < 100 && after === undefined; i++) {
        const res = await adminCall<SnapshotDocument>(m.origin, 'snapshot', { session: 'late' });
        if (res.status === 200) after = res.json;
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect({ ...after, takenAt: '' }).toEqual({ ...before, takenAt: '' });
    } finally {
      await m.close();
    }
  });

  it.each<[string, (d: SnapshotDocument) => unknown, number, string]>([
    ['a newer version', (d) => ({ ...d, version: 2 }), 400, 'snapshot_invalid'],
    ['a wrong field', (d) => ({ ...d, clock: { ...d.clock, now: 'soon' } }), 400, 'snapshot_invalid'],
    [
      'an id the shared store cannot place',
      (d) => ({ ...d, store: { ...d.store, created: [{ id: 5000, name: 'x', categoryId: 1 }], nextId: 5001 } }),
      400,
      'snapshot_invalid',
    ],
    [
      'more animals than a store holds',
      (d) => {
        const first = d.store.nextId - d.store.created.length;
        const created = Array.from({ length: MAX_CREATED_PETS + 1 }, (_, i) => ({ id: first + i, name: 'n', categoryId: 1 }));
        return { ...d, store: { ...d.store, created, nextId: first + created.length } };
      },
      507,
      'store_full',
    ],
  ])('%s is refused and changes nothing', async (_what, change, status, code) => {
    await adminCall(a.origin, 'clock', { session: 'kept', body: { frozen: true } });
    await create(a, 'kept', 'Kept');
    const before = await snapshotOf(a, 'kept');
    const res = await restore(b, 'kept', change(before));
    expect(res.status).toBe(status);
    expect(res.json.code).toBe(code);
    expect({ ...(await snapshotOf(b, 'kept')), takenAt: '' }).toEqual({ ...before, takenAt: '' });
  });

  it('keeps the journal bounds: the newest entries that fit, and the next request follows the count', async () => {
    const doc = await snapshotOf(a, 'journal');
    const entry = (seq: number): JournalEntry =>
      ({
        seq,
        at: '2026-03-10T12:00:00.000Z',
        session: 'x',
        method: 'GET',
        path: '/v1/pets',
        query: 'x'.repeat(200),
        status: 200,
        reason: 'listed',
        durationMs: 0,
        keyId: 'k1',
      }) as unknown as JournalEntry;
    const many = {
      ...doc,
      settings: { ...doc.settings, journal: { ...doc.settings.journal, size: 5000 } },
      journal: { ...doc.journal, entries: Array.from({ length: 3000 }, (_, i) => entry(i + 1)), total: 3000 },
    };
    const res = await restore(a, 'journal', many);
    expect(res.json).toMatchObject({ restored: true });
    const kept = await b.session('journal').requests();
    expect(kept.length).toBeLessThan(3000);
    expect(kept.length * 600).toBeLessThanOrEqual(DEFAULT_JOURNAL_BYTES);
    expect(kept.at(-1)).toEqual(expect.objectContaining({ seq: 3000, session: 'journal', keyId: 'k1' }));
    await fetch(`${b.origin}/v1/pets`, { headers: { 'x-mock-session': 'journal', authorization: 'Bearer demo-pro' } });
    expect((await a.session('journal').requests()).at(-1)?.seq).toBe(3001);
  });

  it('PUT /__admin/scenario {"scenario": …} applies on one replica, the other answers by it, GET returns the definition', async () => {
    const scenario = { name: 'sent', description: 'Sent over HTTP.', steps: [{ match: { operation: 'listPets' }, answer: { status: 503, retryAfter: 5 } }] };
    const res = await adminCall<{ name: string; session: string }>(a.origin, 'scenario', { method: 'PUT', session: 'obj', body: { scenario } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: 'sent', session: 'obj' });
    const got = await adminCall<{ name: string; definition: unknown }>(b.origin, 'scenario', { session: 'obj' });
    expect(got.json).toMatchObject({ name: 'sent', definition: scenario });
    expect((await fetch(`${b.origin}/v1/pets`, { headers: { 'x-mock-session': 'obj', authorization: 'Bearer demo-pro' } })).status).toBe(503);
    expect((await fetch(`${a.origin}/v1/pets`, { headers: { 'x-mock-session': 'obj', authorization: 'Bearer demo-pro' } })).status).toBe(200);
    // A reset on the other replica runs the object's settings again.
    await adminCall(b.origin, 'reset', { method: 'POST', session: 'obj' });
    expect((await fetch(`${b.origin}/v1/pets`, { headers: { 'x-mock-session': 'obj', authorization: 'Bearer demo-pro' } })).status).toBe(503);

    const wrong = await adminCall<ErrorJson>(a.origin, 'scenario', { method: 'PUT', session: 'obj', body: { scenario: { steps: 'x' } } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.code).toBe('scenario_invalid');
  });

  it('the library restores too; import and exportOnExit are refused at start, saying why', async () => {
    await a.session('lib').restore(await b.session('src').snapshot());
    expect((await a.session('lib').snapshot()).store.created).toEqual([expect.objectContaining({ name: 'Rex' })]);
    await expect(startMock({ state: redis.url, import: {} })).rejects.toThrow(
      /the option "import" cannot be used with "state": "import" restores the default session at start, which every replica joining would do again over the shared session; restore it once with PUT \/__admin\/snapshot/,
    );
    await expect(startMock({ state: redis.url, exportOnExit: 'x.json' })).rejects.toThrow(
      /the option "exportOnExit" cannot be used with "state": "exportOnExit" writes the default session on exit, which every replica stopping would do; take it once with GET \/__admin\/snapshot/,
    );
  });
});
