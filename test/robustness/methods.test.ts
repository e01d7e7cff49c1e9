import { beforeEach, describe, expect, it } from 'vitest';
import { responseProblem } from '../support/openapi-check.js';
import { useMock } from '../support/mock.js';
import { rawRequest, type RawReply } from '../support/raw.js';
import { allowOf, successStatus, undeclaredMethod } from '../support/undeclared.js';

const { mock, fresh } = useMock();
beforeEach(fresh);

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND', 'PURGE'];
/** The Allow of the API's paths, from the OpenAPI document; the served document's own path answers GET alone. */
const PETS = allowOf('/v1/pets');
const PET = allowOf('/v1/pets/1');
const DOCUMENT = 'GET, HEAD, OPTIONS';

/** What each path answers to each method, with the Allow header where one belongs. */
function expected(method: string, path: string): { status: number; code?: string; allow?: string } {
  const allows: Record<string, string> = { '/v1/pets': PETS, '/v1/pets/1': PET, '/v1/openapi.json': DOCUMENT };
  const allow = allows[path];
  if (path.startsWith('/v1/store')) return { status: 501, code: 'not_implemented' };
  if (!allow) return { status: 404, code: 'route_not_found' };
  if (method === 'OPTIONS') return { status: 204, allow };
  if (!allow.split(', ').includes(method)) return { status: 405, code: 'method_not_allowed', allow };
  return { status: path === '/v1/openapi.json' ? 200 : successStatus(method, path) };
}

const PATHS = ['/v1/pets', '/v1/pets/1', '/v1/openapi.json', '/v1/store/orders', '/v1/nope'];
const grid = PATHS.flatMap((path) => METHODS.map((method) => [method, path, expected(method, path)] as const));

async function send(method: string, path: string, headerLines: string[]): Promise<RawReply> {
  const body = method === 'POST' ? '{"name":"Rex","categoryId":3}' : '';
  const extra = body ? ['Content-Type: application/json', `Content-Length: ${body.length}`] : [];
  const text = `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${[...headerLines, ...extra].map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n${body}`;
  const reply = await rawRequest(mock(), text);
  expect(responseProblem(method, path, reply.status, new Headers(reply.headers), reply.body)).toBeUndefined();
  return reply;
}

describe('every method on every path', () => {
  it.each(grid)('%s %s', async (method, path, want) => {
    const res = await send(method, path, ['Authorization: Bearer demo-free']);
    expect(res.status).toBe(want.status);
    expect(res.headers.allow).toBe(want.allow);
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    if (method === 'HEAD') {
      expect(res.body).toBe('');
      const get = await send('GET', path, ['Authorization: Bearer demo-free']);
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
      expect(get.status).toBe(res.status);
    } else if (want.code) {
      expect(res.json).toEqual(expect.objectContaining({ code: want.code, status: want.status }));
    } else if (want.status === 204) {
      expect(res.body).toBe('');
    }
  });

  it.each(grid.filter(([, , want]) => want.status >= 400))('%s %s answers its route error before asking for a key', async (method, path, want) => {
    const res = await send(method, path, []);
    expect(res.status).toBe(want.status);
    expect(res.headers.allow).toBe(want.allow);
  });

  it('serves the OpenAPI document and plain OPTIONS without a key', async () => {
    expect((await send('GET', '/v1/openapi.json', [])).status).toBe(200);
    expect((await send('HEAD', '/v1/openapi.json', [])).status).toBe(200);
    expect((await send('OPTIONS', '/v1/pets', [])).headers.allow).toBe(PETS);
  });
});

describe('CORS preflights', () => {
  it.each([
    ['/v1/pets', 'POST', PETS],
    ['/v1/pets', undeclaredMethod('/v1/pets'), PETS],
    ['/v1/pets/1', 'GET', PET],
    ['/v1/openapi.json', 'GET', DOCUMENT],
    ['/v1/nope', 'GET', PETS],
  ])('OPTIONS %s asking for %s -> 204, no key needed, nothing counted', async (path, asked, allow) => {
    const res = await send('OPTIONS', path, [
      'Origin: http://app.example',
      `Access-Control-Request-Method: ${asked}`,
      'Access-Control-Request-Headers: authorization, content-type',
    ]);
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe(allow);
    expect(res.headers['access-control-allow-headers']).toContain('Authorization');
    expect(res.headers['x-ratelimit-remaining']).toBe('60');
    expect(mock().requests().at(-1)).toMatchObject({ method: 'OPTIONS', status: 204, reason: 'CORS preflight' });
  });

  it('reflects only well-formed header names a preflight asks for', async () => {
    const res = await send('OPTIONS', '/v1/pets', [
      'Origin: http://app.example',
      'Access-Control-Request-Method: POST',
      'Access-Control-Request-Headers: x-trace, <script>, a b, x-ok',
    ]);
    const allowed = (res.headers['access-control-allow-headers'] ?? '').split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['x-trace', 'x-ok']));
    expect(allowed).not.toContain('<script>');
    expect(allowed).not.toContain('a b');
    for (const name of allowed) expect(name).toMatch(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/);
  });

  it('exposes the rate-limit and auth headers on an error answered to a page', async () => {
    const res = await send('GET', '/v1/pets', ['Origin: http://app.example']);
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('WWW-Authenticate');
    expect(res.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
  });
});
