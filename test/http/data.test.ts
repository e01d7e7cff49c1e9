import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type MockOptions, type RunningMock } from '../../src/index.js';
import { call, post } from '../support/mock.js';
import { at } from '../support/checked.js';

const started: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((m) => m.close()));
});

async function bodies(options: MockOptions): Promise<string[]> {
  const mock = await startMock({ port: 0, ...options });
  started.push(mock);
  const out: string[] = [];
  for (const path of ['/v1/pets?limit=100', '/v1/pets?status=pending&limit=7', '/v1/pets/42']) out.push((await call(mock, path)).text);
  return out;
}

describe('seeded data', () => {
  it('the default store is larger than the default page of 20, and the largest page also shows created animals', async () => {
    const mock = await startMock({ port: 0 });
    started.push(mock);
    expect((await call(mock, '/v1/pets')).json).toHaveLength(20);
    const created = await call(mock, '/v1/pets', post({ name: 'Rex', categoryId: 3 }));
    expect(created.status).toBe(201);
    const page = (await call(mock, '/v1/pets?limit=100')).json as { id: number }[];
    expect(page.map((p) => p.id)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
    expect(page.at(-1)).toEqual(created.json);
  });

  it('the same seed gives byte-identical answers, server after server', async () => {
    expect(await bodies({ seed: 7 })).toEqual(await bodies({ seed: 7 }));
    expect(await bodies({})).toEqual(await bodies({ seed: 42 }));
  });

  it('a different seed gives different animals', async () => {
    const [a] = await bodies({ seed: 1 });
    const [b] = await bodies({ seed: 2 });
    expect(a).not.toBe(b);
  });

  it('holds 50 animals by default and --pets N of them when asked', async () => {
    const mock = await startMock({ port: 0 });
    started.push(mock);
    expect((await call(mock, '/v1/pets/50')).status).toBe(200);
    expect((await call(mock, '/v1/pets/51')).status).toBe(404);
    const small = await startMock({ port: 0, pets: 4 });
    started.push(small);
    expect((await call(small, '/v1/pets')).json.map((p: { id: number }) => p.id)).toEqual([1, 2, 3, 4]);
    const empty = await startMock({ port: 0, pets: 0 });
    started.push(empty);
    expect((await call(empty, '/v1/pets')).json).toEqual([]);
  });

  it.each([
    ['fixtures/pets.json', [1, 2, 3]],
    ['fixtures/db.json', [1, 2, 3, 4, 10]],
  ])('serves the animals of %s', async (file, ids) => {
    const mock = await startMock({ port: 0, fixtures: file });
    started.push(mock);
    const list = await call(mock, '/v1/pets');
    expect(list.json.map((p: { id: number }) => p.id)).toEqual(ids);
    const created = await call(mock, '/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"N","categoryId":1}' });
    expect(created.json.id).toBe(at(ids, -1) + 1);
  });

  it('refuses an unreadable fixtures file with a message naming it', async () => {
    await expect(startMock({ port: 0, fixtures: 'fixtures/missing.json' })).rejects.toThrow(
      'cannot read the fixtures file fixtures/missing.json (no such file)',
    );
  });
});

describe('animals given to the library as an array', () => {
  it('get the checks of a fixtures file: ids filled in after the largest, order by id', async () => {
    const { createFetchHandler } = await import('../../src/index.js');
    const handler = createFetchHandler({
      fixtures: [{ id: 5, name: 'Five', categoryId: 1 }, { id: 2, name: 'Two', categoryId: 1, status: 'sold' }, { name: 'NoId', categoryId: 3 } as never],
    });
    const res = await handler(new Request('http://mock.test/v1/pets', { headers: { authorization: 'Bearer demo-free' } }));
    expect(await res.json()).toEqual([
      { id: 2, name: 'Two', categoryId: 1, status: 'sold' },
      { id: 5, name: 'Five', categoryId: 1 },
      { id: 6, name: 'NoId', categoryId: 3 },
    ]);
  });

  it.each([
    [[{ id: 1, categoryId: 1 }], 'petstore-mock: the fixtures option: animal #1 needs a string "name".'],
    [
      [
        { id: 1, name: 'A', categoryId: 1 },
        { id: 1, name: 'B', categoryId: 1 },
      ],
      'petstore-mock: the fixtures option: animal #2 repeats id 1; ids must be unique.',
    ],
    [[{ id: 1, name: 'A', categoryId: 1.5 }], 'petstore-mock: the fixtures option: animal #1 needs an integer "categoryId".'],
  ])('refuses %j with the message of a bad fixtures file', async (pets, message) => {
    const { createFetchHandler } = await import('../../src/index.js');
    expect(() => createFetchHandler({ fixtures: pets as never })).toThrow(message);
  });
});
