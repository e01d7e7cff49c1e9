import { beforeEach, describe, expect, it } from 'vitest';
import type { components } from './generated/petstore.js';
import { createPetstoreClient, type DeprecationNotice } from './client.js';
import { T0, useMock } from '../support/mock.js';

type Pet = components['schemas']['Pet'];

const { mock, fresh } = useMock({ keys: ['sdk-tiny:free:2:1000', 'sdk-daily:free:100:2'] });
beforeEach(() => fresh());

/** A client whose retry waits move the mock's clock; it records every wait. */
function sdk(apiKey: string | null = 'demo-free', retry: { maxRetries?: number; baseMs?: number } = {}, onSleep: () => Promise<void> = async () => {}) {
  const sleeps: number[] = [];
  const notices: DeprecationNotice[] = [];
  const client = createPetstoreClient({
    baseUrl: mock().url,
    apiKey: apiKey ?? undefined,
    retry: {
      ...retry,
      sleep: async (ms) => {
        sleeps.push(ms);
        mock().clock.advance(ms);
        await onSleep();
      },
    },
    onDeprecated: (n) => notices.push(n),
  });
  return { client, sleeps, notices };
}

/** Uses up a key's current minute with plain requests, as another worker sharing the key would. */
async function exhaust(key: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${mock().url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    await res.body?.cancel();
    if (res.status === 429) return;
  }
}

describe('an SDK generated from the served OpenAPI document (openapi-typescript + openapi-fetch)', () => {
  it('lists animals in id order with the default page of 20, and a page size', async () => {
    const { client } = sdk();
    const all = await client.GET('/pets');
    expect(all.response.status).toBe(200);
    expect(all.data?.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const five = await client.GET('/pets', { params: { query: { limit: 5 } } });
    expect(five.data).toHaveLength(5);
    expect(five.response.headers.get('x-ratelimit-remaining')).toBe('58');
  });

  it.each(['available', 'pending', 'sold'] as const)('filters by status %s', async (status) => {
    const { client } = sdk();
    const { data } = await client.GET('/pets', { params: { query: { status, limit: 100 } } });
    expect(data!.length).toBeGreaterThan(0);
    expect(data!.every((p: Pet) => p.status === status)).toBe(true);
  });

  it('creates an animal and fetches it back, the fetch flagged deprecated', async () => {
    const { client, notices } = sdk();
    const created = await client.POST('/pets', { body: { name: 'Biscuit', categoryId: 7, status: 'available' } });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual({ id: 51, name: 'Biscuit', categoryId: 7, status: 'available' });
    expect(created.response.headers.get('location')).toBe('/v1/pets/51');
    expect(notices).toEqual([]);
    const fetched = await client.GET('/pets/{petId}', { params: { path: { petId: created.data!.id } } });
    expect(fetched.data).toEqual(created.data);
    expect(notices).toEqual([
      { operation: 'GET /pets/{petId}', deprecatedAt: new Date('2025-12-05T00:00:00Z'), sunset: new Date('2030-12-05T00:00:00Z'), successor: '/v1/pets' },
    ]);
  });

  it('gets 410 endpoint_removed from the removal date on, still with the deprecation headers', async () => {
    const { client, notices } = sdk();
    mock().clock.set('2030-12-04T23:59:59Z');
    expect((await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } })).response.status).toBe(200);
    mock().clock.set('2030-12-05T00:00:00Z');
    const gone = await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } });
    expect(gone.response.status).toBe(410);
    expect(gone.error).toMatchObject({ code: 'endpoint_removed', status: 410 });
    expect(gone.error?.message).toContain('Use GET /v1/pets with the status filter');
    expect(notices).toHaveLength(2);
    const list = await client.GET('/pets', { params: { query: { limit: 1 } } });
    expect(list.response.status).toBe(200);
  });

  it.each([
    ['no key', null, 401, 'missing_api_key'],
    ['an unknown key', 'not-a-key', 401, 'invalid_api_key'],
  ])('gets a typed 401 error for %s, with the bearer challenge', async (_name, key, status, code) => {
    const { client } = sdk(key);
    const { data, error, response } = await client.GET('/pets');
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ code, status });
    expect(response.status).toBe(status);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="petstore"/);
  });

  it('gets 400 invalid_query for a page size out of range', async () => {
    const { client } = sdk();
    const { error } = await client.GET('/pets', { params: { query: { limit: 101 } } });
    expect(error).toMatchObject({ code: 'invalid_query', status: 400 });
  });

  it('gets 400 invalid_body naming each offending field', async () => {
    const { client } = sdk();
    // The generated types forbid this body, which is the point: the server must refuse it too.
    const body = { name: 42, categoryId: 'x' } as unknown as components['schemas']['NewPet'];
    const { error } = await client.POST('/pets', { body });
    expect(error).toMatchObject({ code: 'invalid_body', status: 400 });
    expect(error?.details?.map((d) => d.field).sort()).toEqual(['categoryId', 'name']);
  });

  it('gets 400 invalid_path_parameter and 404 pet_not_found from the deprecated fetch', async () => {
    const { client } = sdk();
    const bad = await client.GET('/pets/{petId}', { params: { path: { petId: 1.5 } } });
    expect(bad.error).toMatchObject({ code: 'invalid_path_parameter', status: 400 });
    const missing = await client.GET('/pets/{petId}', { params: { path: { petId: 999_999 } } });
    expect(missing.error).toMatchObject({ code: 'pet_not_found', status: 404 });
  });

  it('gets 413 for a body over 1 MiB and 415 for a body that is not JSON', async () => {
    const { client } = sdk();
    const big = await client.POST('/pets', { body: { name: 'x'.repeat(1024 * 1024), categoryId: 1 } });
    expect(big.error).toMatchObject({ code: 'payload_too_large', status: 413 });
    const text = await client.POST('/pets', {
      body: { name: 'Tom', categoryId: 1 },
      bodySerializer: (b) => `name=${b.name}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(text.error).toMatchObject({ code: 'unsupported_media_type', status: 415 });
  });

  it('retries a 429 after Retry-After, sending nothing while limited', async () => {
    const { client, sleeps } = sdk('sdk-tiny');
    for (let i = 0; i < 2; i++) expect((await client.GET('/pets', { params: { query: { limit: 1 } } })).response.status).toBe(200);
    const third = await client.GET('/pets', { params: { query: { limit: 1 } } });
    expect(third.response.status).toBe(200);
    expect(sleeps).toEqual([60_000]);
    expect(mock().clock.now().toISOString()).toBe(new Date(T0 + 60_000).toISOString());
    expect(
      mock()
        .requests()
        .map((e) => e.status),
    ).toEqual([200, 200, 429, 200]);
  });

  it('backs off exponentially while the quota keeps running out, never waiting less than Retry-After', async () => {
    let neighbourRounds = 3;
    const { client, sleeps } = sdk('sdk-tiny', { baseMs: 30_000 }, async () => {
      if (neighbourRounds-- > 0) await exhaust('sdk-tiny');
    });
    await exhaust('sdk-tiny');
    const res = await client.GET('/pets', { params: { query: { limit: 1 } } });
    expect(res.response.status).toBe(200);
    // max(Retry-After 60 s, 30 s × 2^n): 60 s, 60 s, 120 s, then 60 s × 2^3 = 240 s.
    expect(sleeps).toEqual([60_000, 60_000, 120_000, 240_000]);
    expect(
      mock()
        .requests()
        .filter((e) => e.code === 'key_banned'),
    ).toEqual([]);
  });

  it('honours a day-long Retry-After once the daily quota is spent', async () => {
    const { client, sleeps } = sdk('sdk-daily');
    for (let i = 0; i < 3; i++) expect((await client.GET('/pets', { params: { query: { limit: 1 } } })).response.status).toBe(200);
    expect(sleeps).toEqual([12 * 3600_000]);
    expect(mock().clock.now().toISOString()).toBe('2026-03-11T00:00:00.000Z');
  });

  it('hands the 429 to the caller when retries run out, and a key that keeps sending gets banned', async () => {
    const { client } = sdk('sdk-tiny', { maxRetries: 0 });
    await exhaust('sdk-tiny');
    const limited = await client.GET('/pets');
    expect(limited.error).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(limited.response.headers.get('retry-after')).toBe('60');
    // The first 8 refusals of the wait (exhaust's and this one included) are taken for requests in
    // flight; each later one counts, and the 11th counted bans.
    mock().clock.advance('2s');
    let last = limited;
    for (let i = 0; i < 16; i++) last = await client.GET('/pets');
    expect(last.error).toMatchObject({ code: 'rate_limited', status: 429 });
    last = await client.GET('/pets');
    expect(last.error).toMatchObject({ code: 'key_banned', status: 429 });
    expect(last.response.headers.get('retry-after')).toBe('300');
  });
});
