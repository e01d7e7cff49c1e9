import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { CHECK_ORDER_CASES } from '../support/check-order-cases.js';
import { burst, post, useMock } from '../support/mock.js';
import { allowOf, undeclaredMethod, undeclaredMethods } from '../support/undeclared.js';

const { call, mock, fresh } = useMock({ keys: ['tiny:free:1:1000'] });
beforeEach(fresh);

describe('the order of checks: preflight, route, removal, auth, rate limit, media type, size, validation', () => {
  it.each(CHECK_ORDER_CASES)('%s', async (_what, path, init, status, code) => {
    const res = await call(path, init as RequestInit & { key?: string | null });
    expect(res.status).toBe(status);
    expect(res.json.code).toBe(code);
  });

  it('the rate limit beats the media type and validation', async () => {
    expect((await call('/v1/pets', { key: 'tiny' })).status).toBe(200);
    const res = await call('/v1/pets', { ...post('x', { 'content-type': 'text/plain' }), key: 'tiny' });
    expect(res.status).toBe(429);
    expect(res.json.code).toBe('rate_limited');
    expect((await call('/v1/pets?limit=0', { key: 'tiny' })).status).toBe(429);
  });

  it('the removal date beats auth and the rate limit on the deprecated endpoint', async () => {
    mock().clock.set('2030-12-05T00:00:00Z');
    expect((await call('/v1/pets/1', { key: null })).json.code).toBe('endpoint_removed');
    expect((await call('/v1/pets', { key: 'tiny' })).status).toBe(200);
    expect((await call('/v1/pets/1', { key: 'tiny' })).status).toBe(410);
  });

  it('a route error is answered even for an exhausted key, and does not count towards a ban', async () => {
    await burst(mock(), 1, '/v1/pets', { key: 'tiny' });
    expect((await call('/v1/nope', { key: 'tiny' })).status).toBe(404);
    const res = await call('/v1/nope', { key: 'tiny' });
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(res.headers.get('retry-after')).toBeNull();
  });
});

describe('status matrix of each operation', () => {
  it.each<[method: string, path: string, body: string | undefined, status: number]>([
    ['GET', '/v1/pets', undefined, 200],
    ['HEAD', '/v1/pets', undefined, 200],
    ['GET', '/v1/pets?limit=100&status=available', undefined, 200],
    ['GET', '/v1/pets?limit=101', undefined, 400],
    ['GET', '/v1/pets?status=lost', undefined, 400],
    ['POST', '/v1/pets', '{"name":"Rex","categoryId":3}', 201],
    ['POST', '/v1/pets', '{"name":"Rex"}', 400],
    ['POST', '/v1/pets', '{"name":"Rex",', 400],
    ['POST', '/v1/pets', '', 400],
    ['GET', '/v1/pets/1', undefined, 200],
    ['HEAD', '/v1/pets/1', undefined, 200],
    ['GET', '/v1/pets/424242', undefined, 404],
    ['GET', '/v1/pets/1.5', undefined, 400],
    // Each of these methods the document does not define at these paths, a POST with a body.
    ...['/v1/pets', '/v1/pets/1'].flatMap((path) =>
      undeclaredMethods(path, ['POST', 'PUT', 'PATCH', 'DELETE']).map((method): [string, string, string | undefined, number] => [
        method,
        path,
        method === 'POST' ? '{}' : undefined,
        405,
      ]),
    ),
    ['POST', '/v1/openapi.json', '{}', 405],
    ['GET', '/v1/store/orders', undefined, 501],
    ['POST', '/v1/store/orders/1', '{}', 501],
    ['GET', '/v1', undefined, 404],
    ['GET', '/', undefined, 404],
    ['OPTIONS', '/v1/pets', undefined, 204],
    ['OPTIONS', '/v1/pets/1', undefined, 204],
  ])('%s %s -> %i', async (method, path, body, status) => {
    const init: RequestInit = { method };
    if (body !== undefined) Object.assign(init, post(body), { method });
    const res = await call(path, init);
    expect(res.status).toBe(status);
    if (status >= 400) expect(res.json).toEqual(expect.objectContaining({ status, code: expect.any(String), message: expect.any(String) }));
  });

  it.each(['/v1/pets', '/v1/pets/1'].map((path) => [path, undeclaredMethod(path), allowOf(path)]))(
    '405 and OPTIONS on %s (%s) carry Allow: %s',
    async (path, method, allow) => {
      const refused = await call(path, { method });
      expect(refused.status).toBe(405);
      expect(refused.headers.get('allow')).toBe(allow);
      expect((await call(path, { method: 'OPTIONS' })).headers.get('allow')).toBe(allow);
    },
  );

  it('HEAD is GET without a body', async () => {
    const head = await call('/v1/pets?limit=3', { method: 'HEAD' });
    const get = await call('/v1/pets?limit=3');
    expect(head.text).toBe('');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
  });

  it('accepts gzip bodies and UTF-8 charsets', async () => {
    const gz = await call('/v1/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=UTF-8', 'content-encoding': 'gzip' },
      body: gzipSync('{"name":"Zip","categoryId":1}'),
    });
    expect(gz.status).toBe(201);
    expect(gz.json.name).toBe('Zip');
  });

  it.each([
    ['text/plain', 415],
    ['application/json; charset=latin1', 415],
    ['application/vnd.api+json', 415],
    ['application/json; charset="utf-8"', 201],
    ['Application/JSON', 201],
  ])('Content-Type %j -> %i', async (type, status) => {
    expect((await call('/v1/pets', post('{"name":"T","categoryId":1}', { 'content-type': type }))).status).toBe(status);
  });

  it('keeps categoryId exact beyond 2^53', async () => {
    const res = await call('/v1/pets', post('{"name":"Big","categoryId":9007199254740993}'));
    expect(res.status).toBe(201);
    expect(res.text).toContain('"categoryId":9007199254740993');
    const again = await call(`/v1/pets/${res.json.id}`);
    expect(again.text).toContain('"categoryId":9007199254740993');
  });

  it('never takes the id from the request', async () => {
    const res = await call('/v1/pets', post('{"name":"Sneaky","categoryId":1,"id":1}'));
    expect(res.status).toBe(400);
    expect(res.json.details).toEqual([{ field: 'id', message: 'is not a field of NewPet' }]);
  });

  it('answers 414 to a request target over 8 KiB', async () => {
    const res = await call(`/v1/pets?pad=${'a'.repeat(9000)}`);
    expect(res.status).toBe(414);
    expect(res.json.code).toBe('uri_too_long');
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('answers 431 with the Error body to headers over the limit', async () => {
    const res = await fetch(`${mock().url}/pets`, { headers: { authorization: 'Bearer demo-free', 'x-pad': 'a'.repeat(20_000) } });
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ code: 'headers_too_large', message: expect.any(String), status: 431 });
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
  });
});
