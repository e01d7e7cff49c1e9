// GET and PUT /__admin/snapshot: which session, what a wrong document gets (its JSON pointer, both
// versions) and that it changes nothing, the bounds a restore keeps, and the library's calls.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import type { SnapshotDocument } from '../../src/core/state/snapshot.js';
import { DEFAULT_JOURNAL_BYTES } from '../../src/core/state/journal.js';
import { MAX_CREATED_PETS } from '../../src/core/state/store.js';
import { adminCall, type ErrorJson } from '../support/admin.js';
import { T0, call, post } from '../support/mock.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  for (const id of ['default', 'a', 'b']) {
    const s = id === 'default' ? mock : mock.session(id);
    s.reset();
    s.clock.freeze();
    s.clock.set(T0);
  }
});

const snapshotOf = async (query = '', session?: string): Promise<SnapshotDocument> =>
  (await adminCall<SnapshotDocument>(mock.origin, `snapshot${query}`, { session })).json;
const restore = (
  body: unknown,
  session?: string,
  query = '',
): Promise<{ status: number; json: ErrorJson & { details?: { field: string; message: string }[] } }> =>
  adminCall(mock.origin, `snapshot${query}`, { method: 'PUT', body: typeof body === 'string' ? body : JSON.stringify(body), session });

describe('GET /__admin/snapshot', () => {
  it('takes the session of X-Mock-Session or ?session=, and looking creates no session', async () => {
    await call(mock, '/v1/pets', { ...post({ name: 'Rex', categoryId: 1 }), headers: { 'content-type': 'application/json', 'x-mock-session': 'a' } });
    const byHeader = await snapshotOf('', 'a');
    const byQuery = await snapshotOf('?session=a');
    expect({ ...byHeader, takenAt: '' }).toEqual({ ...byQuery, takenAt: '' });
    expect(byHeader).toEqual(expect.objectContaining({ format: 'petstore-mock/snapshot', version: 1, session: 'a' }));
    expect(byHeader.store.created).toEqual([{ id: 51, name: 'Rex', categoryId: 1 }]);
    expect((await snapshotOf('', 'default')).store.created).toEqual([]);
    await snapshotOf('?session=never-used');
    expect(mock.sessions().map((s) => s.id)).not.toContain('never-used');
  });

  it.each([
    ['?session=a', 'b', /X-Mock-Session says "b" and \?session= says "a"/],
    ['?other=1', undefined, /has no parameter "other"/],
  ])('refuses %s (header %s)', async (query, session, message) => {
    const res = await adminCall<ErrorJson>(mock.origin, `snapshot${query}`, { session });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('admin_invalid_request');
    expect(res.json.message).toMatch(message);
  });
});

describe('PUT /__admin/snapshot', () => {
  it('restores into the session named, from any session', async () => {
    await call(mock, '/v1/pets', post({ name: 'Rex', categoryId: 1 }));
    const doc = await snapshotOf();
    const res = await restore(doc, undefined, '?session=b');
    expect({ status: res.status, json: res.json }).toEqual({
      status: 200,
      json: { restored: true, session: 'b', scenario: 'default', clock: { now: new Date(T0).toISOString(), frozen: true } },
    });
    expect(
      mock
        .session('b')
        .requests()
        .map((e) => [e.session, e.path]),
    ).toEqual([['b', '/v1/pets']]);
    const list = await call(mock, '/v1/pets?limit=100', { headers: { 'x-mock-session': 'b' } });
    expect(list.json.at(-1)).toEqual({ id: 51, name: 'Rex', categoryId: 1 });
  });

  it('restores the ids a session removed: lists and fetches skip them, a new animal takes none, the next snapshot keeps them', async () => {
    await call(mock, '/v1/pets', post({ name: 'Rex', categoryId: 1, status: 'sold' }));
    const doc = await snapshotOf();
    expect(doc.store.removed).toBeUndefined();
    const sold = (await call(mock, '/v1/pets?limit=100&status=sold')).json.map((p: { id: number }) => p.id);
    const gone = [2, sold[0], 51];
    const removed = [...new Set(gone)].sort((x, y) => x - y);
    expect((await restore({ ...doc, store: { ...doc.store, removed } }, 'b')).status).toBe(200);
    const headers = { 'x-mock-session': 'b' };
    for (const id of removed) expect((await call(mock, `/v1/pets/${id}`, { headers })).status).toBe(404);
    const all = (await call(mock, '/v1/pets?limit=100', { headers })).json.map((p: { id: number }) => p.id);
    expect(all).toEqual(Array.from({ length: 50 }, (_, i) => i + 1).filter((id) => !removed.includes(id)));
    expect((await call(mock, `/v1/pets/${all[0]}`, { headers })).status).toBe(200);
    // A page that ends in the base reads past the removed ids.
    expect((await call(mock, '/v1/pets?limit=3', { headers })).json.map((p: { id: number }) => p.id)).toEqual(all.slice(0, 3));
    const soldNow = (await call(mock, '/v1/pets?limit=100&status=sold', { headers })).json.map((p: { id: number }) => p.id);
    expect(soldNow).toEqual(sold.filter((id: number) => !removed.includes(id)));
    const created = await call(mock, '/v1/pets', { ...post({ name: 'Tom', categoryId: 2 }), headers: { 'content-type': 'application/json', ...headers } });
    expect(created.json.id).toBe(52);
    expect((await snapshotOf('', 'b')).store.removed).toEqual(removed);
    // A reset forgets them with the rest of what the session did.
    mock.session('b').reset();
    expect((await call(mock, '/v1/pets/2', { headers })).status).toBe(200);
    expect((await snapshotOf('', 'b')).store.removed).toBeUndefined();
  });

  /** A valid document with one field changed. */
  const changed = async (change: (doc: any) => void): Promise<unknown> => {
    const doc = JSON.parse(JSON.stringify(await snapshotOf())) as Record<string, unknown>;
    change(doc);
    return doc;
  };

  it.each<[string, (doc: any) => void, string, RegExp]>([
    ['not a snapshot', (d) => (d.format = 'har'), '/format', /format must be "petstore-mock\/snapshot", not "har"/],
    ['an unknown key', (d) => (d.extra = 1), '/extra', /unknown key "extra"/],
    ['a missing part', (d) => delete d.store, '/store', /needs the key "store"/],
    ['a wrong status', (d) => d.store.created.push({ id: 60, name: 'x', categoryId: 1, status: 'lost' }), '/store/created/0/status', /"lost"/],
    ['a day that does not exist', (d) => (d.clock.now = '2030-02-30T00:00:00Z'), '/clock/now', /not an ISO-8601 instant that exists/],
    ['ids out of order', (d) => (d.store.base[3].id = 1), '/store/base/3/id', /ids must ascend: 1 follows 3/],
    ['a next id taken', (d) => (d.store.nextId = 50), '/store/nextId', /must follow every animal's id \(50\)/],
    [
      'a window this version lacks',
      (d) => d.limits.push({ key: 'demo-free', windows: [{ window: '2h', start: '2026-03-10T12:00:00Z', count: 1 }] }),
      '/limits/0/windows/0/window',
      /a second, minute, hour or day \("1s", "1m", "1h", "1d", or 1, 60, 3600, 86400\), not "2h"/,
    ],
    [
      'a window not at its start',
      (d) => d.limits.push({ key: 'demo-free', windows: [{ window: 60, start: '2026-03-10T12:00:01Z', count: 1 }] }),
      '/limits/0/windows/0/start',
      /starts at the beginning of its minute/,
    ],
    ['a key twice', (d) => d.settings.keys.push(d.settings.keys[0]), '/settings/keys/4/key', /listed twice/],
    ['a scenario mistake', (d) => (d.scenario.definition.steps = [{ answer: { status: 418 } }]), '/scenario/definition/steps/0/answer/status', /418/],
    [
      'a journal count behind its entries',
      (d) => {
        d.journal.entries = [
          { seq: 5, at: '2026-03-10T12:00:00.000Z', session: 'x', method: 'GET', path: '/v1/pets', query: '', status: 200, reason: 'listed', durationMs: 0 },
        ];
        d.journal.total = 2;
      },
      '/journal/total',
      /at least the last entry's number \(5\)/,
    ],
    ['removed ids out of order', (d) => (d.store.removed = [4, 2]), '/store/removed/1', /ids must ascend: 2 follows 4/],
    ['a removed id held by no animal', (d) => (d.store.removed = [3, 77]), '/store/removed/1', /no animal of the store has id 77/],
    ['a removed id that is no id', (d) => (d.store.removed = [0]), '/store/removed/0', /must be >= 1/],
    ['a step past the steps', (d) => (d.scenario.position = { step: 3, taken: 0, chaosState: 0, latencyState: 0 }), '/scenario/position/step', /has 0 steps/],
  ])('refuses %s with its JSON pointer, and the session stays as it was', async (_what, change, field, message) => {
    await call(mock, '/v1/pets', { ...post({ name: 'Kept', categoryId: 2 }), headers: { 'content-type': 'application/json', 'x-mock-session': 'a' } });
    const before = await snapshotOf('', 'a');
    const res = await restore(await changed(change), 'a');
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('snapshot_invalid');
    expect(res.json.details).toEqual([{ field, message: expect.stringMatching(message) }]);
    expect(res.json.message).toContain(`not valid at ${field}`);
    expect({ ...(await snapshotOf('', 'a')), takenAt: '' }).toEqual({ ...before, takenAt: '' });
  });

  it('refuses another version naming both, and a body that is not JSON', async () => {
    const res = await restore(await changed((d) => (d.version = 2)), 'fresh');
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      'petstore-mock: the snapshot is version 2, and this petstore-mock reads version 1; take it again with this version, or restore it with the version that wrote it.',
    );
    expect(res.json.details).toEqual([{ field: '/version', message: 'version 2 given, version 1 read' }]);
    expect((await restore('{"format":', 'fresh')).json.code).toBe('admin_invalid_request');
    // A refused restore does not even create the session it names.
    expect(mock.sessions().map((s) => s.id)).not.toContain('fresh');
  });

  it('keeps the bounds of a session: the journal sheds its oldest entries, the store refuses past its cap', async () => {
    const entry = (seq: number): object => ({
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
    });
    const many = await changed((d) => {
      d.journal.entries = Array.from({ length: 3000 }, (_, i) => entry(i + 1));
      d.journal.total = 3000;
      d.settings.journal.size = 5000;
    });
    expect((await restore(many, 'a')).status).toBe(200);
    const kept = mock.session('a').requests();
    expect(kept.length).toBeLessThan(3000);
    expect(kept.at(-1)).toEqual(expect.objectContaining({ seq: 3000, session: 'a', keyId: 'k1' }));
    expect(kept.length * 600).toBeLessThanOrEqual(DEFAULT_JOURNAL_BYTES);
    // The next request follows the document's count.
    await call(mock, '/v1/pets', { headers: { 'x-mock-session': 'a' } });
    expect(mock.session('a').requests().at(-1)?.seq).toBe(3001);

    const full = await changed((d) => {
      d.store.created = Array.from({ length: MAX_CREATED_PETS + 1 }, (_, i) => ({ id: 51 + i, name: 'n', categoryId: 1 }));
      d.store.nextId = 52 + MAX_CREATED_PETS;
    });
    const before = await snapshotOf('', 'a');
    const refused = await restore(full, 'a');
    expect(refused.status).toBe(507);
    expect(refused.json.code).toBe('store_full');
    expect({ ...(await snapshotOf('', 'a')), takenAt: '' }).toEqual({ ...before, takenAt: '' });
  });
});

describe('the library', () => {
  it('mock.snapshot() and mock.session(id).restore() carry a session over; a wrong document throws naming the field', async () => {
    await call(mock, '/v1/pets', post({ name: 'Rex', categoryId: 1 }));
    mock.session('b').restore(mock.snapshot());
    expect(mock.session('b').snapshot().store.created).toEqual([{ id: 51, name: 'Rex', categoryId: 1 }]);
    expect(() => mock.session('b').restore({ format: 'petstore-mock/snapshot', version: 1 })).toThrow(
      /^petstore-mock: the snapshot is not valid at \/scenario: the snapshot needs the key "scenario"/,
    );
  });

  it('startMock({ import }) starts the default session from a document', async () => {
    await call(mock, '/v1/pets', post({ name: 'Rex', categoryId: 1 }));
    const copy = await startMock({ import: mock.snapshot() });
    try {
      expect((await call(copy, '/v1/pets/51')).json).toEqual({ id: 51, name: 'Rex', categoryId: 1 });
      await expect(startMock({ import: { format: 'nope' } })).rejects.toThrow(
        /^petstore-mock: cannot import the "import" option: the snapshot is not valid at \/format/,
      );
    } finally {
      await copy.close();
    }
  });
});
