import { beforeEach, describe, expect, it } from 'vitest';
import { call, useMock } from '../support/mock.js';

const { mock, fresh } = useMock({ keys: ['one:free:1:1000'] });
beforeEach(fresh);

const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

describe('the deprecated GET /v1/pets/{petId}', () => {
  it.each([
    ['/v1/pets/1', 'demo-free', 200],
    ['/v1/pets/999999', 'demo-free', 404],
    ['/v1/pets/x', 'demo-free', 400],
    ['/v1/pets/1', null, 401],
  ])('%s (key %s) -> %i carries Deprecation, Sunset and Link', async (path, key, status) => {
    const res = await call(mock(), path, { key });
    expect(res.status).toBe(status);
    expect(res.headers.get('deprecation')).toBe('@1764892800');
    expect(res.headers.get('sunset')).toBe(SUNSET);
    expect(res.headers.get('link')).toContain('</v1/pets>; rel="successor-version"');
  });

  it('carries them on a 429 too', async () => {
    await call(mock(), '/v1/pets/1', { key: 'one' });
    const res = await call(mock(), '/v1/pets/1', { key: 'one' });
    expect(res.status).toBe(429);
    expect(res.headers.get('sunset')).toBe(SUNSET);
  });

  it('works until the removal instant and answers 410 Gone from it on', async () => {
    mock().clock.set('2030-12-04T23:59:59.999Z');
    expect((await call(mock(), '/v1/pets/1')).status).toBe(200);
    mock().clock.advance(1);
    const gone = await call(mock(), '/v1/pets/1');
    expect(gone.status).toBe(410);
    expect(gone.json).toEqual({ code: 'endpoint_removed', message: expect.stringContaining('GET /v1/pets with the status filter'), status: 410 });
    expect(gone.headers.get('sunset')).toBe(SUNSET);
    expect((await call(mock(), '/v1/pets?status=sold')).status).toBe(200);
  });

  it('is not on the other operations', async () => {
    const res = await call(mock(), '/v1/pets');
    expect(res.headers.get('deprecation')).toBeNull();
    expect(res.headers.get('sunset')).toBeNull();
  });
});

describe('CORS', () => {
  it('answers a preflight without a key, allowing Authorization, and counts nothing', async () => {
    const res = await fetch(`${mock().url}/pets`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-trace',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toContain('Authorization');
    expect(res.headers.get('access-control-allow-headers')).toContain('x-trace');
    const after = await call(mock(), '/v1/pets', { key: null, headers: { origin: 'http://app.example' } });
    expect(after.headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it.each([
    ['/v1/pets', 'demo-free', 200],
    ['/v1/pets', null, 401],
    ['/v1/nope', 'demo-free', 404],
    ['/v1/pets/1', 'demo-free', 200],
  ])('%s (key %s) -> %i lets a page read the headers and the body', async (path, key, status) => {
    const res = await call(mock(), path, { key, headers: { origin: 'http://app.example' } });
    expect(res.status).toBe(status);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = res.headers.get('access-control-expose-headers') ?? '';
    for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Deprecation', 'Sunset', 'Link', 'Location'])
      expect(exposed).toContain(h);
  });
});

describe('auth', () => {
  it.each([
    [{}, 'missing_api_key', 'Bearer realm="petstore"'],
    [{ authorization: 'Bearer nope' }, 'invalid_api_key', 'Bearer realm="petstore", error="invalid_token"'],
    [{ authorization: 'Bearer' }, 'malformed_authorization', 'Bearer realm="petstore", error="invalid_token"'],
    [{ authorization: 'Token demo-free' }, 'malformed_authorization', 'Bearer realm="petstore", error="invalid_token"'],
  ])('%j -> 401 %s with WWW-Authenticate', async (headers, code, challenge) => {
    for (const [path, method] of [
      ['/v1/pets', 'GET'],
      ['/v1/pets', 'POST'],
      ['/v1/pets/1', 'GET'],
    ] as const) {
      const res = await call(mock(), path, { key: null, method, headers });
      expect(res.status).toBe(401);
      expect(res.json.code).toBe(code);
      expect(res.headers.get('www-authenticate')).toBe(challenge);
    }
  });

  it('matches the scheme case-insensitively and the key exactly', async () => {
    expect((await call(mock(), '/v1/pets', { key: null, headers: { authorization: 'bEaReR demo-free' } })).status).toBe(200);
    expect((await call(mock(), '/v1/pets', { key: 'Demo-Free' })).status).toBe(401);
  });
});

describe('the OpenAPI document', () => {
  it('is served at /v1/openapi.json without a key, version 1.0.0, getPet deprecated', async () => {
    const res = await fetch(`${mock().url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const doc = (await res.json()) as any;
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.paths['/pets/{petId}'].get.deprecated).toBe(true);
    expect(Object.keys(doc.paths['/pets'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '429']));
    expect(Object.keys(doc.paths['/pets'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '413', '415', '429']));
    expect(Object.keys(doc.paths['/pets/{petId}'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404', '410', '429']));
  });
});

describe('sessions', () => {
  it('X-Mock-Session worlds do not see each other', async () => {
    const created = await call(mock(), '/v1/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-session': 'worker-1' },
      body: '{"name":"Solo","categoryId":1}',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-mock-session')).toBe('worker-1');
    expect((await call(mock(), `/v1/pets/${created.json.id}`, { headers: { 'x-mock-session': 'worker-1' } })).status).toBe(200);
    expect((await call(mock(), `/v1/pets/${created.json.id}`, { headers: { 'x-mock-session': 'worker-2' } })).status).toBe(404);
    expect((await call(mock(), `/v1/pets/${created.json.id}`)).status).toBe(404);
  });

  it('refuses an unusable session id', async () => {
    const res = await call(mock(), '/v1/pets', { headers: { 'x-mock-session': 'bad id!' } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_session');
  });
});
