import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/index.js';
import { T0 } from '../support/mock.js';

// The MSW set-up of the README and docs/reference.md: every request to the API's origin goes to the in-process mock.
const petstore = createFetchHandler();
const server = setupServer(http.all('https://api.example.test/*', ({ request }) => petstore(request)));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  petstore.reset();
  petstore.clock.freeze();
  petstore.clock.set(T0);
});

const auth = { headers: { Authorization: 'Bearer demo-free' } };

describe('createFetchHandler behind MSW', () => {
  it('answers a plain fetch of the API with seeded animals and rate-limit headers', async () => {
    const res = await fetch('https://api.example.test/v1/pets?limit=3', auth);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
    const pets = (await res.json()) as { id: number; name: string }[];
    expect(pets.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(petstore.requests().map((e) => `${e.method} ${e.path}?${e.query} ${e.status}`)).toEqual(['GET /v1/pets?limit=3 200']);
  });

  it('keeps what a POST created for the next fetch', async () => {
    const created = await fetch('https://api.example.test/v1/pets', {
      method: 'POST',
      headers: { Authorization: 'Bearer demo-free', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Milo', categoryId: 2, status: 'pending' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const pending = (await (await fetch('https://api.example.test/v1/pets?status=pending&limit=100', auth)).json()) as { id: number }[];
    expect(pending.map((p) => p.id)).toContain(id);
  });

  it('passes errors through unchanged', async () => {
    const res = await fetch('https://api.example.test/v1/pets');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
    expect(await res.json()).toMatchObject({ code: 'missing_api_key', status: 401 });
  });
});
