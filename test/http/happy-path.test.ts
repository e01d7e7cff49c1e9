import { describe, expect, it } from 'vitest';
import { useMock } from '../support/mock.js';

const { call } = useMock();

describe('the happy paths of the specification', () => {
  it('lists 20 animals by default, in ascending id order, each with id, name, categoryId and status', async () => {
    const res = await call('/v1/pets');
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(20);
    const ids = res.json.map((p: { id: number }) => p.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    for (const pet of res.json) expect(Object.keys(pet).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
  });

  it('filters by status, then cuts to limit', async () => {
    const res = await call('/v1/pets?limit=5&status=sold');
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(5);
    expect(res.json.every((p: { status: string }) => p.status === 'sold')).toBe(true);
  });

  it('creates an animal with an assigned id and Location, then lists and fetches it', async () => {
    const created = await call('/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":3}' });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 3 });
    expect(created.headers.get('location')).toBe(`/v1/pets/${created.json.id}`);
    const fetched = await call(`/v1/pets/${created.json.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.json).toEqual(created.json);
  });
});

describe('a small store', () => {
  const small = useMock({ pets: 3 });

  it('lists a created animal after the seeded ones', async () => {
    const created = await small.call('/v1/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":3,"status":"pending"}',
    });
    expect(created.status).toBe(201);
    const listed = await small.call('/v1/pets');
    expect(listed.json.map((p: { id: number }) => p.id)).toEqual([1, 2, 3, 4]);
    expect(listed.json[3]).toEqual({ id: 4, name: 'Rex', categoryId: 3, status: 'pending' });
  });
});

describe('errors', () => {
  it('answers an unknown id with 404 and the Error body', async () => {
    const res = await call('/v1/pets/999999');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 'pet_not_found', message: expect.stringContaining('999999'), status: 404 });
  });
});
