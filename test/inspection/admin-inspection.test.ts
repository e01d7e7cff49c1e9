import { beforeEach, describe, expect, it } from 'vitest';
import { T0, burst, call, post, useMock } from '../support/mock.js';
import { at, first } from '../support/checked.js';

const { mock, fresh } = useMock({ keys: ['qa-key-123456:free:3:100'] });
beforeEach(fresh);

async function admin(path: string, init: RequestInit = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(`${mock().origin}/__admin/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** A small mixed journal: two lists, a create, a 404, a bad body and a 429. */
async function traffic(): Promise<void> {
  await call(mock(), '/v1/pets?limit=2');
  await call(mock(), '/v1/pets', post({ name: 'Rex', categoryId: 1 }));
  await call(mock(), '/v1/pets', post({ name: 7 }));
  await call(mock(), '/v1/pets/999999', { key: 'demo-pro' });
  await burst(mock(), 4, '/v1/pets?limit=1', { key: 'qa-key-123456' });
}

const line = (e: { seq: number; method: string; path: string; status: number }): string => `${e.seq} ${e.method} ${e.path} ${e.status}`;

describe('GET /__admin/requests with filters', () => {
  it.each([
    [
      '',
      [
        '1 GET /v1/pets 200',
        '2 POST /v1/pets 201',
        '3 POST /v1/pets 400',
        '4 GET /v1/pets/999999 404',
        '5 GET /v1/pets 200',
        '6 GET /v1/pets 200',
        '7 GET /v1/pets 200',
        '8 GET /v1/pets 429',
      ],
    ],
    ['?method=POST', ['2 POST /v1/pets 201', '3 POST /v1/pets 400']],
    ['?path=/v1/pets/*', ['4 GET /v1/pets/999999 404']],
    ['?status=429', ['8 GET /v1/pets 429']],
    ['?status=4xx&method=GET', ['4 GET /v1/pets/999999 404', '8 GET /v1/pets 429']],
    ['?code=invalid_body', ['3 POST /v1/pets 400']],
    ['?key=demo-pro', ['4 GET /v1/pets/999999 404']],
    ['?key=qa-key-123456&limit=2', ['7 GET /v1/pets 200', '8 GET /v1/pets 429']],
    ['?since=2026-03-10T12:00:00Z&status=201', ['2 POST /v1/pets 201']],
    ['?since=2026-03-10T12:00:01Z', []],
  ])('%s', async (query, expected) => {
    await traffic();
    const { status, json } = await admin(`requests${query}`);
    expect(status).toBe(200);
    expect(json.map(line)).toEqual(expected);
  });

  it.each([
    ['?stauts=429', /the journal has no filter "stauts"; filter by method, path, status, code, key, since/],
    ['?status=teapot', /status must be a status such as 429/],
    ['?since=yesterday', /since must be an ISO-8601 instant/],
    ['?method=GET&method=POST', /method must be given once/],
    ['?limit=0', /limit takes a whole number/],
    ['?details=maybe', /details takes 1 or 0/],
  ])('%s -> 400 admin_invalid_request', async (query, message) => {
    const { status, json } = await admin(`requests${query}`);
    expect(status).toBe(400);
    expect(json.code).toBe('admin_invalid_request');
    expect(json.message).toMatch(message);
  });

  it('GET /__admin/requests/count counts what matches, for CI assertions', async () => {
    await traffic();
    expect((await admin('requests/count?method=POST&path=/v1/pets')).json).toEqual({ count: 2, filter: 'method POST, path /v1/pets', session: 'default' });
    expect((await admin('requests/count?status=5xx')).json).toEqual({ count: 0, filter: 'status 5xx', session: 'default' });
    expect((await admin('requests/count?limit=3')).status).toBe(400);
  });
});

describe('request and answer details', () => {
  it('are off by default: entries stay as they were', async () => {
    await call(mock(), '/v1/pets', post({ name: 'Rex', categoryId: 1 }));
    const [plain] = (await admin('requests?details=1')).json;
    expect(plain.details).toBeUndefined();
    expect((await admin('journal')).json).toEqual({ session: 'default', details: false, entries: 1, capacity: 1000, total: 1 });
  });

  it('once recording is on, ?details=1 shows headers and bodies, keys redacted; the plain listing does not', async () => {
    expect((await admin('journal', { method: 'PUT', body: '{"details":true}' })).json.details).toBe(true);
    await call(mock(), '/v1/pets', post({ name: 'Rex', categoryId: 1 }, { 'x-trace': 'abc' }));
    const [withDetails] = (await admin('requests?details=1')).json;
    expect(withDetails.details.request).toEqual({
      headers: expect.objectContaining({ authorization: 'Bearer demo…ree', 'content-type': 'application/json', 'x-trace': 'abc' }),
      body: '{"name":"Rex","categoryId":1}',
      bodyBytes: 29,
    });
    expect(withDetails.details.response.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-RateLimit-Remaining': '59' });
    expect(JSON.parse(withDetails.details.response.body)).toMatchObject({ name: 'Rex', categoryId: 1 });
    expect(JSON.stringify(withDetails)).not.toContain('demo-free');
    const [plain] = (await admin('requests')).json;
    expect(plain.details).toBeUndefined();
    expect(at(mock().requests({ details: true }), 0).details?.request.body).toBe('{"name":"Rex","categoryId":1}');
    expect(at(mock().requests(), 0).details).toBeUndefined();
  });

  it('a long answer is cut at 4 KiB and marked truncated', async () => {
    // The default store's 50 animals list in under 4 KiB: animals with long names (1,000
    // characters at most) make the list longer.
    for (let i = 0; i < 3; i++) expect((await call(mock(), '/v1/pets', post({ name: 'R'.repeat(1000), categoryId: 1 }))).status).toBe(201);
    mock().recordDetails();
    await call(mock(), '/v1/pets?limit=100');
    const [entry] = first(mock().requests({ details: true, method: 'GET' }), 1);
    expect(entry.details?.response.truncated).toBe(true);
    expect(new TextEncoder().encode(entry.details?.response.body).length).toBeLessThanOrEqual(4096);
    expect(entry.details?.response.bodyBytes).toBeGreaterThan(4096);
  });

  it('recording survives a reset and can be turned off', async () => {
    mock().recordDetails(true);
    mock().reset();
    await call(mock(), '/v1/pets?limit=1');
    expect(at(mock().requests({ details: true }), 0).details).toBeDefined();
    expect((await admin('journal', { method: 'PUT', body: '{"details":false}' })).json.details).toBe(false);
    await call(mock(), '/v1/pets?limit=1');
    expect(at(mock().requests({ details: true }), 1).details).toBeUndefined();
  });

  it.each(['{"details":"yes"}', '{}', '{"details":true,"more":1}', '[true]'])('PUT journal %s -> 400', async (body) => {
    const res = await admin('journal', { method: 'PUT', body });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('petstore-mock: PUT /__admin/journal takes {"details": true} or {"details": false}.');
  });
});

describe('GET /__admin/sessions', () => {
  it('lists every session with its scenario, last use and request count, the default first', async () => {
    await call(mock(), '/v1/pets?limit=1');
    await call(mock(), '/v1/pets?limit=1', { headers: { 'x-mock-session': 'worker-a' } });
    await call(mock(), '/v1/pets?limit=1', { headers: { 'x-mock-session': 'worker-b' } });
    await call(mock(), '/v1/pets?limit=1', { headers: { 'x-mock-session': 'worker-b' } });
    mock().session('worker-a').useScenario('flaky');
    const { status, json } = await admin('sessions');
    expect(status).toBe(200);
    expect(json.map((s: { id: string; scenario: string; requests: number }) => [s.id, s.scenario, s.requests])).toEqual([
      ['default', 'default', 1],
      ['worker-b', 'default', 2],
      ['worker-a', 'flaky', 0],
    ]);
    for (const s of json) {
      expect(Date.parse(s.lastUsedAt)).not.toBeNaN();
      expect(s.lastUsedAt).toMatch(/Z$/);
    }
    expect(json[0].clock).toBe(new Date(T0).toISOString());
    expect(
      mock()
        .sessions()
        .map((s) => s.id),
    ).toEqual(['default', 'worker-b', 'worker-a']);
  });
});

describe('mock.requests(filter) and mock.verify', () => {
  it('filters the journal of a session', async () => {
    await traffic();
    expect(mock().requests({ method: 'POST', status: 201 }).map(line)).toEqual(['2 POST /v1/pets 201']);
    expect(mock().requests({ path: '/v1/pets/*' }).map(line)).toEqual(['4 GET /v1/pets/999999 404']);
    expect(mock().session('nobody-yet').requests({ status: 200 })).toEqual([]);
  });

  it('verify passes with the count and fails with the matching requests and near misses', async () => {
    await traffic();
    expect(mock().verify({ method: 'POST', path: '/v1/pets' }, 2)).toHaveLength(2);
    expect(mock().verify({ code: 'rate_limited' })).toHaveLength(1);
    expect(() => mock().verify({ method: 'POST', path: '/v1/pets', status: 201 }, 3)).toThrow(
      /^petstore-mock: expected exactly 3 requests matching method POST, path \/v1\/pets, status 201, but the journal has 1\.\nMatching:\n {2}#2 .* POST \/v1\/pets → 201 key demo…ree\nNear misses \(one criterion off\):\n {2}#3 .* POST \/v1\/pets → 400 invalid_body key demo…ree$/,
    );
  });
});
