import { describe, expect, it } from 'vitest';
import { FixtureError, parseFixtures } from '../../src/core/input/fixtures.js';
import { DEFAULT_PET_COUNT, generatePets } from '../../src/core/state/seed.js';
import { PetStore, REMOVED_ID_BYTES } from '../../src/core/state/store.js';
import { BaseData, petJson } from '../../src/core/state/base-data.js';
import type { Pet } from '../../src/core/types.js';
import { SharedBudget } from '../../src/core/state/budget.js';
import { checkRestoredStore, restoredBase } from '../../src/core/state/store-restore.js';

const pets: Pet[] = [
  { id: 2, name: 'B', categoryId: 1, status: 'sold' },
  { id: 1, name: 'A', categoryId: 1, status: 'available' },
  { id: 5, name: 'E', categoryId: 2, status: 'sold' },
  { id: 9, name: 'I', categoryId: 2 },
];

describe('PetStore', () => {
  it('lists in ascending id order, filters by status, then cuts to limit', () => {
    const store = new PetStore(new BaseData(pets));
    expect(store.list(10).map((p) => p.id)).toEqual([1, 2, 5, 9]);
    expect(store.list(1, 'sold').map((p) => p.id)).toEqual([2]);
    expect(store.list(10, 'sold').map((p) => p.id)).toEqual([2, 5]);
    expect(store.list(10, 'pending')).toEqual([]);
  });

  it('gives new animals the id after the largest and lists them after the base', () => {
    const store = new PetStore(new BaseData(pets));
    const created = store.create({ name: 'New', categoryId: 7, status: 'sold' });
    expect(created.id).toBe(10);
    expect(store.create({ name: 'Next', categoryId: 7 }).id).toBe(11);
    expect(store.list(10, 'sold').map((p) => p.id)).toEqual([2, 5, 10]);
    expect(store.list(3).map((p) => p.id)).toEqual([1, 2, 5]);
    expect(store.get(10)).toEqual(created);
    expect(store.get(3)).toBeUndefined();
    expect(store.get(2n ** 62n)).toBeUndefined();
  });

  it('forgets the removed animals a snapshot gives, of the base or created: gets, lists and bodies skip them, their ids are not given again', () => {
    const base = new BaseData(pets);
    const store = new PetStore(base);
    const tom: Pet = { id: 10, name: 'Tom', categoryId: 7, status: 'sold' };
    const rex: Pet = { id: 11, name: 'Rex', categoryId: 7 };
    store.load(base, [tom, rex], 12, checkRestoredStore(base, [tom, rex], 2), [2, 10]);
    expect([store.get(2), store.get(10), store.get(11)?.id]).toEqual([undefined, undefined, 11]);
    expect(store.list(10).map((p) => p.id)).toEqual([1, 5, 9, 11]);
    expect(store.list(3).map((p) => p.id)).toEqual([1, 5, 9]);
    expect(store.list(10, 'sold').map((p) => p.id)).toEqual([5]);
    expect(store.listBody(4)).toBe(`[${[1, 5, 9, 11].map((id) => petJson(store.get(id)!)).join(',')}]`);
    expect(store.size).toBe(4);
    expect(store.create({ name: 'Next', categoryId: 7 }).id).toBe(12);
    expect(store.content().removed).toEqual([2, 10]);
    // The base other sessions share keeps every animal.
    expect(new PetStore(base).list(10).map((p) => p.id)).toEqual([1, 2, 5, 9]);
    store.reset();
    expect(store.get(2)?.id).toBe(2);
    expect(store.content().removed).toEqual([]);
  });

  it('counts a restored removed id against the session and shared bounds', () => {
    const shared = new SharedBudget(Infinity);
    const limits = { maxCreated: 10, maxCreatedBytes: 1 << 20, maxCachedBodyBytes: 1024, created: shared, listBodies: new SharedBudget(Infinity) };
    const base = new BaseData(pets);
    const store = new PetStore(base, limits);
    const bytes = checkRestoredStore(base, [], 3);
    expect(bytes).toBe(3 * REMOVED_ID_BYTES);
    store.load(base, [], 10, bytes, [1, 2, 5]);
    expect(shared.used).toBe(3 * REMOVED_ID_BYTES);
    store.reset();
    expect(shared.used).toBe(0);
    expect(() => checkRestoredStore(base, [], 200_000)).toThrow(/its 0 created animals and 200000 removed ids hold 3\.05 MiB/);
  });

  it('keeps sessions apart: two stores over one base do not see each other', () => {
    const base = new BaseData(pets);
    const a = new PetStore(base);
    const b = new PetStore(base);
    a.create({ name: 'OnlyA', categoryId: 1 });
    expect(a.size).toBe(5);
    expect(b.size).toBe(4);
    expect(b.get(10)).toBeUndefined();
  });

  it('reset drops what was created; cached bodies follow changes', () => {
    const store = new PetStore(new BaseData(pets));
    const before = store.listBody(20);
    store.create({ name: 'X', categoryId: 1 });
    expect(store.listBody(20)).not.toBe(before);
    store.reset();
    expect(store.listBody(20)).toBe(before);
    expect(store.create({ name: 'Y', categoryId: 1 }).id).toBe(10);
  });

  it('serialises a bigint categoryId exactly and omits a missing status', () => {
    expect(petJson({ id: 1, name: 'Q"', categoryId: 9223372036854775807n })).toBe('{"id":1,"name":"Q\\"","categoryId":9223372036854775807}');
  });
});

describe('generatePets', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(generatePets(7, 50)).toEqual(generatePets(7, 50));
    expect(generatePets(7, 50)).not.toEqual(generatePets(8, 50));
  });

  it('gives ids 1..n, names, categories and every status', () => {
    const generated = generatePets(42, DEFAULT_PET_COUNT);
    expect(generated.map((p) => p.id)).toEqual(Array.from({ length: DEFAULT_PET_COUNT }, (_, i) => i + 1));
    expect(new Set(generated.map((p) => p.status))).toEqual(new Set(['available', 'pending', 'sold']));
    for (const p of generated) {
      expect(p.name.length).toBeGreaterThan(0);
      expect(Number.isInteger(p.categoryId)).toBe(true);
    }
  });
});

describe('parseFixtures', () => {
  it('reads a JSON array of animals', () => {
    expect(parseFixtures('[{"id":3,"name":"C","categoryId":1,"status":"sold"},{"name":"D","categoryId":2}]', 'f.json')).toEqual([
      { id: 3, name: 'C', categoryId: 1, status: 'sold' },
      { id: 4, name: 'D', categoryId: 2 },
    ]);
  });

  it('reads a json-server db.json, with string ids', () => {
    expect(parseFixtures('{"pets":[{"id":"7","name":"G","categoryId":1}],"orders":[]}', 'db.json')).toEqual([{ id: 7, name: 'G', categoryId: 1 }]);
  });

  it.each([
    ['{', 'not valid JSON'],
    ['{"animals":[]}', 'json-server db.json with a "pets" array'],
    ['[1]', 'animal #1 is not a JSON object'],
    ['[{"categoryId":1}]', 'needs a string "name"'],
    ['[{"name":"A","categoryId":"1"}]', 'needs an integer "categoryId"'],
    ['[{"name":"A","categoryId":1,"status":"lost"}]', 'use one of available, pending, sold'],
    ['[{"id":1,"name":"A","categoryId":1},{"id":1,"name":"B","categoryId":1}]', 'repeats id 1'],
    ['[{"id":-1,"name":"A","categoryId":1}]', 'ids must be positive integers'],
  ])('refuses %s, naming the file', (text, fragment) => {
    expect(() => parseFixtures(text, 'my.json')).toThrow(FixtureError);
    expect(() => parseFixtures(text, 'my.json')).toThrow(fragment);
    expect(() => parseFixtures(text, 'my.json')).toThrow('my.json');
  });
});

describe('a restored base in the shared budget', () => {
  it('is counted while a store holds it, refused past what is left, and given back on a switch or a release', () => {
    const server = new BaseData(pets);
    const restored = restoredBase([{ id: 1, name: 'x'.repeat(100), categoryId: 1 }]);
    expect(restored.countedBytes).toBeGreaterThan(200);
    const created = new SharedBudget(restored.countedBytes + 10);
    const limits = { maxCreated: 10, maxCreatedBytes: 1 << 20, maxCachedBodyBytes: 1 << 16, created, listBodies: new SharedBudget(Infinity) };
    const a = new PetStore(server, limits);
    a.checkLoad(0, restored);
    a.load(restored, [], 2, 0);
    expect(created.used).toBe(restored.countedBytes);
    // A second store cannot take another copy: the budget is spent.
    const b = new PetStore(server, limits);
    expect(() => b.checkLoad(0, restoredBase([{ id: 1, name: 'y'.repeat(100), categoryId: 1 }]))).toThrow(/all sessions together/);
    a.reset(server);
    expect(created.used).toBe(0);
    a.load(restored, [], 2, 0);
    a.release();
    expect(created.used).toBe(0);
    // The server's own animals count nothing.
    expect(checkRestoredStore(server, [])).toBe(0);
    expect(() => checkRestoredStore(restoredBase(Array.from({ length: 10_001 }, (_, i) => ({ id: i + 1, name: 'n', categoryId: 1 }))), [])).toThrow(
      /10000 animals and 2 MiB/,
    );
  });
});
