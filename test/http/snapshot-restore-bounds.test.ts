// A restore applies whole or not at all, and within every bound a session keeps, in both homes of
// state: a wrongly typed journal field is a 400 naming its JSON pointer (not a 500 that leaves the
// session half restored), a refused restore creates no session, a categoryId outside int64 is
// refused, the journal's entries count every field they hold, and a base the server does not hold
// counts against the store's bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock, type SharedRunningMock } from '../../src/index.js';
import { DEFAULT_JOURNAL_BYTES } from '../../src/core/state/journal.js';
import { MAX_CREATED_PETS } from '../../src/core/state/store.js';
import type { SnapshotDocument } from '../../src/core/state/snapshot.js';
import { adminCall } from '../support/admin.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

interface Refusal {
  status: number;
  code: string;
  message: string;
  details?: { field: string; message: string }[];
}

const HOMES = [['memory'], ...(redisAvailable() ? [['redis'] as const] : [])] as const;

/** An entry as GET /__admin/requests lists it; `extra` fields are what a hand-edited document adds. */
function entry(seq: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    seq,
    at: '2026-03-10T12:00:00.000Z',
    session: 'x',
    method: 'GET',
    path: '/v1/pets',
    query: '',
    status: 400,
    reason: 'refused',
    durationMs: 0,
    ...extra,
  };
}

describe.each(HOMES)('restoring a snapshot, %s', (home) => {
  let redis: TestRedis | undefined;
  let mock: RunningMock | SharedRunningMock;
  let doc: SnapshotDocument;

  beforeAll(async () => {
    if (home === 'redis') {
      redis = await TestRedis.start();
      mock = await startMock({ state: redis.url, statePrefix: 'bounds' });
    } else {
      mock = await startMock();
    }
    await adminCall(mock.origin, 'clock', { session: 'src', body: { frozen: true, set: '2026-03-10T12:00:00Z' } });
    await fetch(`${mock.origin}/v1/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json', 'x-mock-session': 'src' },
      body: JSON.stringify({ name: 'Kept', categoryId: 2 }),
    });
    doc = (await adminCall<SnapshotDocument>(mock.origin, 'snapshot', { session: 'src' })).json;
  });
  afterAll(async () => {
    await mock?.close();
    await redis?.stop();
  });

  const changed = (change: (d: SnapshotDocument & Record<string, unknown>) => void): SnapshotDocument => {
    const copy = structuredClone(doc) as SnapshotDocument & Record<string, unknown>;
    change(copy);
    return copy;
  };
  const restore = (session: string, document: unknown): ReturnType<typeof adminCall<Refusal>> =>
    adminCall<Refusal>(mock.origin, 'snapshot', { method: 'PUT', session, body: document });
  const snapshotOf = async (session: string): Promise<unknown> => ({
    ...(await adminCall<SnapshotDocument>(mock.origin, 'snapshot', { session })).json,
    takenAt: '',
  });
  const sessionIds = async (): Promise<string[]> => (await adminCall<{ id: string }[]>(mock.origin, 'sessions')).json.map((s) => s.id);
  const withEntry = (extra: Record<string, unknown>): SnapshotDocument =>
    changed((d) => {
      d.journal.entries = [entry(1, extra) as never];
      d.journal.total = 1;
    });

  it.each<[string, Record<string, unknown>, string]>([
    ['details that are not an object', { details: 'x' }, '/journal/entries/0/details'],
    ['details without a response', { details: { request: { headers: {} } } }, '/journal/entries/0/details/response'],
    [
      'a header value that is not text',
      { details: { request: { headers: { a: 5 } }, response: { headers: {} } } },
      '/journal/entries/0/details/request/headers/a',
    ],
    ['a body that is not text', { details: { request: { headers: {}, body: 5 }, response: { headers: {} } } }, '/journal/entries/0/details/request/body'],
    ['a digest that is a number', { digest: 5 }, '/journal/entries/0/digest'],
    ['a key that is an object', { key: { a: 1 } }, '/journal/entries/0/key'],
    ['a ban that is text', { ban: 'yes' }, '/journal/entries/0/ban'],
    ['a fault of no kind', { fault: 'boom' }, '/journal/entries/0/fault'],
    ['a retryAfter that is text', { retryAfter: '5' }, '/journal/entries/0/retryAfter'],
  ])('refuses %s with 400 at its pointer; the session is as it was, and an unknown one is not created', async (_what, extra, field) => {
    const before = await snapshotOf('src');
    const refused = await restore('src', withEntry(extra));
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('snapshot_invalid');
    expect(refused.json.details?.[0]?.field).toBe(field);
    expect(await snapshotOf('src')).toEqual(before);

    const unknown = `never-${field.replace(/\W/g, '')}`;
    expect((await restore(unknown, withEntry(extra))).status).toBe(400);
    expect(await sessionIds()).not.toContain(unknown);
  });

  it.each<[string, string | number, string]>([
    ['past int64 as digits', '9223372036854775808', '/store/created/0/categoryId'],
    ['below int64 as digits', '-9223372036854775809', '/store/created/0/categoryId'],
    ['past int64 as a number', 1e20, '/store/created/0/categoryId'],
  ])('refuses a categoryId %s, naming its pointer', async (_what, categoryId, field) => {
    const refused = await restore(
      'cat',
      changed((d) => {
        (d.store.created[0] as { categoryId: unknown }).categoryId = categoryId;
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.json.details).toEqual([{ field, message: expect.stringMatching(/int64/) }]);
    expect(await sessionIds()).not.toContain('cat');
  });

  it('keeps the int64 edges exactly', async () => {
    const edges = changed((d) => {
      (d.store.created[0] as { categoryId: unknown }).categoryId = '-9223372036854775808';
    });
    expect((await restore('edge', edges)).status).toBe(200);
    const got = await fetch(`${mock.origin}/v1/pets/${doc.store.created[0]?.id}`, { headers: { 'x-mock-session': 'edge', authorization: 'Bearer demo-pro' } });
    expect(await got.text()).toContain('"categoryId":-9223372036854775808');
  });

  it('counts every field of a restored entry against the journal bytes, and keeps no field an entry does not have', async () => {
    const big = changed((d) => {
      d.settings.journal.size = 1000;
      d.journal.entries = Array.from(
        { length: 1000 },
        (_, i) =>
          entry(i + 1, {
            at: `2026-03-10T12:00:00.000Z${' '.repeat(2000)}`,
            key: 'k'.repeat(2000),
            keyId: 'i'.repeat(1000),
            code: 'c'.repeat(1000),
            method: 'M'.repeat(1000),
            padding: 'p'.repeat(4000),
          }) as never,
      );
      d.journal.total = 1000;
    });
    expect((await restore('journal', big)).status).toBe(200);
    const kept = (await adminCall<Record<string, unknown>[]>(mock.origin, 'requests?details=true', { session: 'journal' })).json;
    expect(kept.at(-1)).toMatchObject({ seq: 1000, session: 'journal', key: 'k'.repeat(2000) });
    expect(kept.some((e) => 'padding' in e)).toBe(false);
    // What the kept entries hold, at two bytes a character, is within the journal's bound.
    expect(JSON.stringify(kept).length * 2).toBeLessThanOrEqual(DEFAULT_JOURNAL_BYTES);
    expect(kept.length).toBeGreaterThan(10);
  });

  it('counts a base the server does not hold against the store bound: past it 507, nothing created', async () => {
    const base = (count: number): SnapshotDocument =>
      changed((d) => {
        d.store.base = Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `other-${i}`, categoryId: 1 }));
        d.store.created = [];
        d.store.nextId = count + 1;
      });
    const refused = await restore('base', base(MAX_CREATED_PETS + 1));
    expect(refused.status).toBe(507);
    expect(refused.json.code).toBe('store_full');
    expect(refused.json.message).toMatch(/a session's store holds 10000 animals and 2 MiB/);
    expect(await sessionIds()).not.toContain('base');
    // One that fits restores, and answers from its base.
    expect((await restore('base', base(100))).status).toBe(200);
    const got = await fetch(`${mock.origin}/v1/pets/100`, { headers: { 'x-mock-session': 'base', authorization: 'Bearer demo-pro' } });
    expect(await got.json()).toMatchObject({ id: 100, name: 'other-99' });
    // The server's own base counts nothing: a snapshot of a session of this server restores whatever its size.
    expect((await restore('own', doc)).status).toBe(200);
  });
});
