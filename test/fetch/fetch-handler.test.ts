import { beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler, startMock } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { responseProblem } from '../support/openapi-check.js';
import { at } from '../support/checked.js';

const BASE = 'https://api.example.test';
const handler = createFetchHandler({ keys: ['tiny:free:3:100'] });

beforeEach(() => {
  handler.reset();
  handler.clock.freeze();
  handler.clock.set(T0);
});

/** Calls the handler directly and checks the answer against the OpenAPI document. */
async function send(path: string, init: RequestInit & { key?: string | null } = {}): Promise<{ res: Response; text: string; json: any }> {
  const { key = 'demo-free', ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key !== null) headers.set('authorization', `Bearer ${key}`);
  const res = await handler(new Request(`${BASE}${path}`, { ...rest, headers }));
  const text = await res.text();
  expect(responseProblem(rest.method ?? 'GET', at(path.split('?'), 0), res.status, res.headers, text)).toBeUndefined();
  return { res, text, json: text ? JSON.parse(text) : undefined };
}

describe('createFetchHandler called directly', () => {
  it('lists, filters and creates animals', async () => {
    const list = await send('/v1/pets?limit=2');
    expect(list.res.status).toBe(200);
    expect(list.json.map((p: { id: number }) => p.id)).toEqual([1, 2]);
    expect(list.res.headers.get('x-ratelimit-limit')).toBe('60');
    expect(list.res.headers.get('x-ratelimit-remaining')).toBe('59');

    const sold = await send('/v1/pets?status=sold&limit=100');
    expect(sold.json.length).toBeGreaterThan(0);
    expect(sold.json.every((p: { status?: string }) => p.status === 'sold')).toBe(true);

    const created = await send('/v1/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 3 }),
    });
    expect(created.res.status).toBe(201);
    expect(created.json).toEqual({ id: 51, name: 'Rex', categoryId: 3 });
    expect(created.res.headers.get('location')).toBe('/v1/pets/51');
    expect((await send('/v1/pets/51')).json).toEqual(created.json);
  });

  it('answers byte for byte what the server answers for the same options', async () => {
    const server = await startMock({ port: 0 });
    try {
      const viaServer = await (await fetch(`${server.url}/pets?limit=50`, { headers: { authorization: 'Bearer demo-pro' } })).text();
      const viaHandler = await send('/v1/pets?limit=50', { key: 'demo-pro' });
      expect(viaHandler.text).toBe(viaServer);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['no key', '/v1/pets', { key: null }, 401, 'missing_api_key'],
    ['an unknown key', '/v1/pets', { key: 'nope' }, 401, 'invalid_api_key'],
    ['a bad limit', '/v1/pets?limit=0', {}, 400, 'invalid_query'],
    ['a missing animal', '/v1/pets/9999', {}, 404, 'pet_not_found'],
    ['a bad body', '/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":1}' }, 400, 'invalid_body'],
    ['a text body', '/v1/pets', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }, 415, 'unsupported_media_type'],
    [
      'a body over 1 MiB',
      '/v1/pets',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"name":"${'x'.repeat(1024 * 1024)}","categoryId":1}` },
      413,
      'payload_too_large',
    ],
    ['a target over 8 KiB', `/v1/pets?pad=${'x'.repeat(8200)}`, {}, 414, 'uri_too_long'],
  ] as const)('answers %s with the Error body', async (_name, path, init, status, code) => {
    const { res, json } = await send(path, init as RequestInit & { key?: string | null });
    expect(res.status).toBe(status);
    expect(json).toMatchObject({ code, status });
  });

  it('sends the deprecation headers, then 410 once the virtual clock passes the removal date', async () => {
    const before = await send('/v1/pets/1');
    expect(before.res.status).toBe(200);
    expect(before.res.headers.get('deprecation')).toBe('@1764892800');
    expect(before.res.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(before.res.headers.get('link')).toMatch(/^<\/v1\/pets>; rel="successor-version"/);
    handler.clock.set('2030-12-05T00:00:00Z');
    const after = await send('/v1/pets/1');
    expect(after.res.status).toBe(410);
    expect(after.json.code).toBe('endpoint_removed');
  });

  it('rate limits on the virtual clock, journals every request and resets', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await send('/v1/pets?limit=1', { key: 'tiny' })).res.status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await send('/v1/pets?limit=1', { key: 'tiny' });
    expect(limited.res.headers.get('retry-after')).toBe('60');
    handler.clock.advance('60s');
    expect((await send('/v1/pets?limit=1', { key: 'tiny' })).res.status).toBe(200);
    expect(handler.requests().map((e) => e.status)).toEqual([200, 200, 200, 429, 429, 200]);
    expect(handler.requests()[0]).toMatchObject({ method: 'GET', path: '/v1/pets', query: 'limit=1', key: '****' });
    handler.reset();
    expect(handler.requests()).toEqual([]);
  });

  it('switches scenario, which starts the default session afresh, and names the choices for an unknown one', async () => {
    await send('/v1/pets?limit=1');
    expect(handler.requests()).toHaveLength(1);
    handler.useScenario('removed');
    expect(handler.requests()).toEqual([]);
    expect((await send('/v1/pets/1')).json.code).toBe('endpoint_removed');
    expect(handler.session('w1').clock.state().now).not.toBe('2031-01-01T00:00:00.000Z');
    handler.useScenario('default');
    expect(() => handler.useScenario('nope')).toThrow(/^petstore-mock: unknown scenario "nope"; use one of .*\bdefault\b/);
  });

  it('sees URLs as a Request cleans them up: dot segments resolved (docs/reference.md says so)', async () => {
    const { res } = await send('/v1/pets/../pets?limit=1');
    expect(res.status).toBe(200);
    expect(handler.requests().at(-1)?.path).toBe('/v1/pets');
  });

  it("points admin calls to the handler's own controls", async () => {
    const res = await handler(new Request(`${BASE}/__admin/clock`));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'route_not_found',
      status: 404,
      message: "petstore-mock: the admin API is not served in-process; use the handler's clock, reset(), useScenario() and requests() instead.",
    });
  });

  it('answers HEAD without a body and preflights without a key', async () => {
    const head = await handler(new Request(`${BASE}/v1/pets`, { method: 'HEAD', headers: { authorization: 'Bearer demo-free' } }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const preflight = await handler(
      new Request(`${BASE}/v1/pets`, { method: 'OPTIONS', headers: { origin: 'https://app.example.test', 'access-control-request-method': 'POST' } }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });
});
