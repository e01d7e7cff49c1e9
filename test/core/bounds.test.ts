import { describe, expect, it } from 'vitest';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import { SharedBudget } from '../../src/core/state/budget.js';
import { DEFAULT_JOURNAL_BYTES, Journal, MAX_JOURNAL_TEXT, type JournalEntry } from '../../src/core/state/journal.js';
import { SessionRegistry } from '../../src/core/state/sessions.js';
import { MAX_CREATED_PETS, PetStore, type StoreLimits } from '../../src/core/state/store.js';
import { BaseData } from '../../src/core/state/base-data.js';
import { buildBaseData, defaultSettings } from '../../src/core/state/session-settings.js';
import { MockError } from '../../src/core/errors.js';
import type { CoreRequest } from '../../src/core/types.js';
import { first } from '../support/checked.js';

const entry = (path: string, query = ''): JournalEntry => ({
  seq: 0,
  at: '',
  session: 's',
  method: 'GET',
  path,
  query,
  status: 404,
  reason: 'r',
  durationMs: 0,
});

describe('the journal is bounded in bytes', () => {
  it('cuts long paths and queries to 256 characters and marks the entry', () => {
    const journal = new Journal();
    journal.add(entry(`/${'p'.repeat(8_000)}`, `q=${'x'.repeat(8_000)}`));
    journal.add(entry('/v1/pets', 'limit=1'));
    const [long, short] = first(journal.list(), 2);
    expect(long.path).toHaveLength(MAX_JOURNAL_TEXT);
    expect(long.query).toHaveLength(MAX_JOURNAL_TEXT);
    expect(long.truncated).toBe(true);
    expect(short).not.toHaveProperty('truncated');
  });

  it('holds at most its bytes per session, dropping the oldest entries', () => {
    const journal = new Journal(100_000);
    for (let i = 0; i < 5_000; i++) journal.add(entry(`/${'p'.repeat(300)}/${i}`, 'q'.repeat(300)));
    expect(journal.byteSize).toBeLessThanOrEqual(DEFAULT_JOURNAL_BYTES);
    expect(journal.size).toBeLessThan(5_000);
    expect(journal.list().at(-1)?.path).toContain('/p');
  });

  it('keeps at most its entries', () => {
    const journal = new Journal(10);
    for (let i = 0; i < 25; i++) journal.add(entry(`/${i}`));
    expect(journal.list().map((e) => e.path)).toEqual(Array.from({ length: 10 }, (_, i) => `/${i + 15}`));
  });

  it('keeps all sessions together within the total, trimming the least recently used first', () => {
    const settings = defaultSettings(new BaseData([]));
    const registry = new SessionRegistry(settings, () => 0, 1_000);
    const limit = registry.budgets.journal.limit;
    const sessions = 100;
    for (let s = 0; s < sessions; s++) {
      const world = registry.resolve(`s-${s}`);
      for (let i = 0; i < 500; i++) world.journal.add(entry(`/${'p'.repeat(250)}`, 'q'.repeat(250)));
    }
    expect(registry.budgets.journal.used).toBeLessThanOrEqual(limit);
    // The most recent session kept its entries; the oldest gave them up.
    expect(registry.resolve(`s-${sessions - 1}`).journal.size).toBeGreaterThan(200);
    expect(registry.resolve('s-0').journal.size).toBe(0);
    const counted = registry.all().reduce((sum, w) => sum + w.journal.byteSize, 0);
    expect(counted).toBe(registry.budgets.journal.used);
  });
});

const limits = (over: Partial<StoreLimits> = {}): StoreLimits => ({
  maxCreated: 5,
  maxCreatedBytes: 100_000,
  maxCachedBodyBytes: 512 * 1024,
  created: new SharedBudget(Infinity),
  listBodies: new SharedBudget(Infinity),
  ...over,
});
const storeFull = (fn: () => unknown): MockError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof MockError) return error;
    throw error;
  }
  throw new Error('expected store_full');
};

describe('the store is bounded', () => {
  it(`refuses the create past its count (default ${MAX_CREATED_PETS}) with store_full, and reset empties it`, () => {
    const store = new PetStore(new BaseData([]), limits());
    for (let i = 0; i < 5; i++) store.create({ name: 'a', categoryId: 1 });
    const error = storeFull(() => store.create({ name: 'a', categoryId: 1 }));
    expect([error.code, error.status]).toEqual(['store_full', 507]);
    expect(error.message).toMatch(/^petstore-mock: this session's store is full: a session may create 5 animals/);
    expect(store.size).toBe(5);
    store.reset();
    expect(store.create({ name: 'a', categoryId: 1 }).id).toBe(1);
  });

  it('refuses the create past its bytes', () => {
    const store = new PetStore(new BaseData([]), limits({ maxCreated: 1_000, maxCreatedBytes: 10_000 }));
    let created = 0;
    expect(() => {
      for (;;) {
        store.create({ name: 'n'.repeat(1_000), categoryId: 1 });
        created++;
      }
    }).toThrow(MockError);
    expect(created).toBe(4);
  });

  it('refuses the create when all sessions together hold their total, and gives bytes back on reset', () => {
    const shared = new SharedBudget(5_000);
    const a = new PetStore(new BaseData([]), limits({ maxCreated: 100, created: shared }));
    const b = new PetStore(new BaseData([]), limits({ maxCreated: 100, created: shared }));
    a.create({ name: 'n'.repeat(1_000), categoryId: 1 });
    a.create({ name: 'n'.repeat(1_000), categoryId: 1 });
    expect(storeFull(() => b.create({ name: 'n'.repeat(1_000), categoryId: 1 })).message).toContain('all sessions together');
    a.reset();
    expect(shared.used).toBe(0);
    expect(b.create({ name: 'n'.repeat(1_000), categoryId: 1 }).id).toBe(1);
  });

  it('refuses with store_full, never a 500, once ids reach 2^53 - 1', () => {
    const top = Number.MAX_SAFE_INTEGER;
    const store = new PetStore(new BaseData([{ id: top - 1, name: 'x', categoryId: 1 }]), limits());
    expect(store.create({ name: 'last', categoryId: 1 }).id).toBe(top);
    expect(storeFull(() => store.create({ name: 'past', categoryId: 1 })).message).toContain('no id left');
  });

  it('caches list bodies within their bytes, per session and in total', () => {
    const shared = new SharedBudget(3 * 1024);
    const pets = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: 'n'.repeat(100), categoryId: 1 }));
    const store = new PetStore(new BaseData([]), limits({ maxCreated: 100, listBodies: shared }));
    for (const p of pets) store.create(p);
    for (let limit = 1; limit <= 5; limit++) expect(JSON.parse(store.listBody(limit))).toHaveLength(limit);
    expect(shared.used).toBeLessThanOrEqual(shared.limit);
    expect(shared.used).toBeGreaterThan(0);
    store.reset();
    expect(shared.used).toBe(0);
  });
});

describe('eviction is visible', () => {
  const request = (session: string): CoreRequest => ({
    method: 'GET',
    path: '/v1/pets',
    query: 'limit=1',
    headers: { authorization: 'Bearer demo-free', 'x-mock-session': session },
  });

  it("the evicted session's next answer says so once, and the registry lists it", () => {
    const engine = new MockEngine({ settings: defaultSettings(buildBaseData({ count: 3 })), maxSessions: 2, now: () => Date.UTC(2030, 0, 1) });
    expect(engine.handle(request('a')).headers['X-Mock-Session-Evicted']).toBeUndefined();
    engine.handle(request('b'));
    engine.handle(request('c'));
    expect(engine.sessions.evictions()).toEqual([{ session: 'a', at: '2030-01-01T00:00:00.000Z', journalEntries: 1 }]);
    expect(engine.handle(request('a')).headers['X-Mock-Session-Evicted']).toBe('2030-01-01T00:00:00.000Z');
    expect(engine.handle(request('a')).headers['X-Mock-Session-Evicted']).toBeUndefined();
    expect(engine.handle(request('c')).headers['X-Mock-Session-Evicted']).toBeUndefined();
  });

  it('an evicted session gives its memory back', () => {
    const engine = new MockEngine({ settings: defaultSettings(buildBaseData({ count: 3 })), maxSessions: 1 });
    const json = { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json' };
    const body = new TextEncoder().encode('{"name":"x","categoryId":1}');
    for (let i = 0; i < 10; i++) engine.handle({ method: 'POST', path: '/v1/pets', query: '', headers: { ...json, 'x-mock-session': 'a' }, body });
    const held = engine.sessions.budgets.created.used;
    expect(held).toBeGreaterThan(0);
    engine.handle(request('b'));
    expect(engine.sessions.budgets.created.used).toBe(0);
  });
});

describe('what the bounds count is what the heap holds', () => {
  it('1,000 journals of the longest entries, and animals named from 1 MiB bodies, hold about their counted bytes once collected', async () => {
    const { setFlagsFromString } = await import('node:v8');
    const { runInNewContext } = await import('node:vm');
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = (): number => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const engine = new MockEngine({ settings: defaultSettings(buildBaseData({ count: 3 })) });
    const before = heap();
    // Past the 256 characters an entry keeps, and long enough that an entry keeping its whole
    // target fails the check below (at 600 it did not); longer only costs the suite time.
    const long = 'p'.repeat(1_500);
    for (let s = 0; s < 1_000; s++) {
      const headers = { 'x-mock-session': `m-${s}` };
      // Each request target its own string, as a server reads it off the wire.
      for (let i = 0; i < 120; i++) engine.handle({ method: 'GET', path: `/v1/${long}${i}${s}`, query: `q=${long}${s}`, headers });
    }
    // Names read from 1 MiB bodies (white space around a short object), each body its own text.
    const json = { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json', 'x-mock-session': 'names' };
    for (let i = 0; i < 100; i++) {
      const body = new TextEncoder().encode(`{"name":"a name of some length ${i}","categoryId":1}${' '.repeat(1_000_000)}`);
      expect(engine.handle({ method: 'POST', path: '/v1/pets', query: '', headers: json, body }).status).toBe(201);
    }
    const held = heap() - before;
    const counted = engine.sessions.budgets.journal.used + engine.sessions.budgets.created.used;
    expect(counted).toBeGreaterThan(engine.sessions.budgets.journal.limit * 0.85);
    // Entries hold their cut texts, not the 3 KB targets they were cut from, nor dropped entries;
    // animals their names, not the bodies they were read from.
    expect(held).toBeLessThan(counted * 1.5);
  }, 60_000);
});
