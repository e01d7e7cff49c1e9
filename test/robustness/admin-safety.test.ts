import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { T0, call, post } from '../support/mock.js';
import { at } from '../support/checked.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ allowHosts: ['mock.test', '192.168.1.5'] });
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.reset();
  mock.clock.freeze();
  mock.clock.set(T0);
});

/** An admin call with full control of the headers, Host included (fetch will not send a foreign Host). */
function admin(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: mock.port, method, path: `/__admin/${path}`, headers: { host: `127.0.0.1:${mock.port}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            json: text && String(res.headers['content-type']).includes('json') ? JSON.parse(text) : text,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** What a hostile page could change: the store, the clock, the scenario. */
async function state(): Promise<unknown> {
  return {
    pets: (await call(mock, '/v1/pets?limit=100', { key: 'demo-enterprise' })).text,
    clock: mock.clock.state(),
    scenario: (await admin('GET', 'scenario')).json.name,
  };
}

describe('what a page on another origin can send to the admin API', () => {
  const page = { origin: 'https://evil.example' };
  const refused = { code: 'admin_cross_site_forbidden', status: 403, message: expect.stringContaining('another origin') };
  it.each([
    ['a text/plain POST /reset', 'POST', 'reset', { ...page, 'content-type': 'text/plain' }, ''],
    ['a form POST /reset', 'POST', 'reset', { ...page, 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
    ['a POST /reset with no Content-Type', 'POST', 'reset', page, undefined],
    ['a JSON POST /reset', 'POST', 'reset', { ...page, 'content-type': 'application/json' }, '{}'],
    ['a text/plain POST /clock', 'POST', 'clock', { ...page, 'content-type': 'text/plain' }, '{"advance":"1d"}'],
    ['a multipart POST /clock', 'POST', 'clock', { ...page, 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
    ['a text/plain PUT /scenario', 'PUT', 'scenario', { ...page, 'content-type': 'text/plain' }, '{"name":"ban"}'],
    ['an Origin of null (a sandboxed frame, a file)', 'POST', 'reset', { origin: 'null' }, undefined],
    ['an Origin on another port', 'POST', 'reset', { origin: 'http://127.0.0.1:1' }, undefined],
    ['Sec-Fetch-Site: cross-site without Origin', 'POST', 'reset', { 'sec-fetch-site': 'cross-site' }, undefined],
    ['Sec-Fetch-Site: same-site (another port of localhost)', 'POST', 'clock', { 'sec-fetch-site': 'same-site' }, '{"advance":"1d"}'],
  ])('%s -> 403 admin_cross_site_forbidden, nothing changed, no CORS grant', async (_what, method, path, headers, body) => {
    await call(mock, '/v1/pets', { ...post({ name: 'Mine', categoryId: 1 }), key: 'demo-enterprise' });
    const before = await state();
    const res = await admin(method, path, headers, body);
    expect(res.status).toBe(403);
    expect(res.json).toEqual(refused);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(await state()).toEqual(before);
  });

  it.each(['GET requests', 'GET keys', 'GET clock', 'GET health', 'GET sessions'])(
    '%s from another origin is refused too: a read costs the mock work',
    async (what) => {
      for (const headers of [page, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }]) {
        const res = await admin('GET', at(what.split(' '), 1), headers);
        expect(res.status).toBe(403);
        expect(res.json).toEqual(refused);
        expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      }
    },
  );

  it.each(['scenario', 'reset', 'clock'])('a preflight for /__admin/%s is refused and grants nothing', async (path) => {
    const res = await admin('OPTIONS', path, { ...page, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' });
    expect(res.status).toBe(403);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('a link from another site to the admin page opens it (a navigation; the page holds no data)', async () => {
    const res = await admin('GET', '', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' });
    expect(res.status).toBe(200);
    expect((await admin('GET', '', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'iframe' })).status).toBe(403);
  });

  it.each([
    ['the page itself (same-origin)', { 'sec-fetch-site': 'same-origin', origin: 'ORIGIN' }],
    ['a typed address or bookmark', { 'sec-fetch-site': 'none' }],
    ['a same-origin Origin, another spelling of the port', { origin: 'ORIGIN' }],
  ])('%s is answered', async (_what, headers) => {
    const own = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('ORIGIN', `http://127.0.0.1:${mock.port}`)]));
    expect((await admin('POST', 'clock', own, '{"advance":"1m"}')).status).toBe(200);
    expect(mock.clock.now().getTime()).toBe(T0 + 60_000);
  });
});

describe('admin calls as people type them (curl, scripts: no Origin, no Content-Type)', () => {
  it('curl -X POST /__admin/reset with no body and no Content-Type resets', async () => {
    await call(mock, '/v1/pets', { ...post({ name: 'Mine', categoryId: 1 }), key: 'demo-enterprise' });
    expect((await call(mock, '/v1/pets?limit=100', { key: 'demo-enterprise' })).text).toContain('"Mine"');
    const res = await admin('POST', 'reset');
    expect(res.status).toBe(200);
    expect(res.json.reset).toBe(true);
    expect((await call(mock, '/v1/pets?limit=100', { key: 'demo-enterprise' })).text).not.toContain('"Mine"');
  });

  it("curl -d '{...}' (sent as a form type) is read as JSON", async () => {
    const res = await admin('POST', 'clock', { 'content-type': 'application/x-www-form-urlencoded' }, '{"advance":"1m"}');
    expect(res.status).toBe(200);
    expect(mock.clock.now().getTime()).toBe(T0 + 60_000);
  });

  it('a body that is not JSON is a 400 saying so', async () => {
    const res = await admin('POST', 'clock', { 'content-type': 'text/plain' }, 'advance=1m');
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('admin_invalid_request');
  });
});

describe('the API stays open to pages', () => {
  const page = { origin: 'https://evil.example' };
  it('the API path keeps its open CORS', async () => {
    const res = await call(mock, '/v1/pets?limit=1', { headers: page });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('the Host check (DNS rebinding)', () => {
  it.each([
    ['evil.example', 'GET', 'requests'],
    ['evil.example:4010', 'GET', 'keys'],
    ['rebind.attacker.test', 'POST', 'reset'],
    ['127.0.0.1.nip.io', 'POST', 'clock'],
    ['localhost.evil.example', 'PUT', 'scenario'],
  ])('Host %s on %s /__admin/%s -> 403 admin_host_forbidden, nothing changed', async (host, method, path) => {
    const before = await state();
    const res = await admin(method, path, { host, 'content-type': 'application/json' }, method === 'GET' ? undefined : '{"advance":"1d","name":"ban"}');
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ code: 'admin_host_forbidden', status: 403, message: expect.stringContaining('--allow-host') });
    expect(await state()).toEqual(before);
  });

  it.each(['localhost', 'LOCALHOST:4010', 'app.localhost', '127.0.0.1', '127.0.0.2:99', '[::1]:4010', 'mock.test', 'mock.test.', '192.168.1.5:4010'])(
    'Host %s is answered',
    async (host) => {
      const res = await admin('GET', 'clock', { host });
      expect(res.status).toBe(200);
    },
  );

  // What kubelet probes, Prometheus' pod discovery and load balancers' checks send: the pod's address.
  it.each(['10.244.1.7:4010', '10.244.1.7', '203.0.113.9:80', '0.0.0.0:4010', '192.0.2.1.:4010', '[fd00::7]:4010', '[2001:db8::1]', '[::ffff:10.0.0.1]:9'])(
    'Host %s (an IP address literal) is answered as a loopback name is',
    async (host) => {
      expect((await admin('GET', 'clock', { host })).status).toBe(200);
      expect((await admin('POST', 'clock', { host, 'content-type': 'application/json' }, '{"advance":"1s"}')).status).toBe(200);
    },
  );

  it.each(['10.244.1.7.nip.io:4010', '10.244.1', '10.244.1.7.8', '[fd00::7', 'fd00::7x', '0x0a.0.0.1'])(
    'Host %s (no IP address, so a name) -> 403 admin_host_forbidden',
    async (host) => {
      const res = await admin('GET', 'clock', { host });
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('admin_host_forbidden');
    },
  );

  it.each([
    ['10.244.1.7:4010', { origin: 'https://evil.example' }],
    ['10.244.1.7:4010', { origin: 'http://10.244.1.8:4010' }],
    ['[fd00::7]:4010', { 'sec-fetch-site': 'cross-site' }],
    ['10.244.1.7:4010', { 'sec-fetch-site': 'same-site' }],
  ])('Host %s keeps the cross-site refusal of %j', async (host, headers) => {
    const before = await state();
    const res = await admin('POST', 'reset', { host, 'content-type': 'application/json', ...headers }, '{}');
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('admin_cross_site_forbidden');
    expect(await state()).toEqual(before);
  });

  it('Host 10.244.1.7:4010 with its own Origin (the admin page opened at that address) is answered', async () => {
    const res = await admin(
      'POST',
      'clock',
      { host: '10.244.1.7:4010', origin: 'http://10.244.1.7:4010', 'content-type': 'application/json' },
      '{"advance":"1m"}',
    );
    expect(res.status).toBe(200);
  });

  it('the host the server listens on is answered', async () => {
    const other = await startMock({ host: '127.0.0.3' });
    try {
      const res = await fetch(`${other.origin}/__admin/clock`);
      expect(res.status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('a JSON state change from an allowed host goes through', async () => {
    const res = await admin('POST', 'clock', { 'content-type': 'application/json; charset=utf-8' }, '{"advance":"1m"}');
    expect(res.status).toBe(200);
    expect(mock.clock.now().getTime()).toBe(T0 + 60_000);
    expect((await admin('POST', 'reset', { 'content-type': 'application/json' })).status).toBe(200);
  });
});

describe('instants are read strictly everywhere', () => {
  it.each(['2030-02-30T00:00:00Z', 'December 5, 2030', '2030-12-05', '2030-12-05T24:30:00Z', '1733356800000', '2030-12-05T00:00:60Z'])(
    'POST /__admin/clock {"set": %j} -> 400 saying what to write; the clock untouched',
    async (text) => {
      const res = await admin('POST', 'clock', { 'content-type': 'application/json' }, JSON.stringify({ set: text }));
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('admin_invalid_request');
      expect(res.json.message).toContain('such as "2030-12-05T00:00:00Z"');
      expect(mock.clock.now().getTime()).toBe(T0);
    },
  );

  it.each(['2030-02-30T00:00:00Z', 'December 5, 2030', 'tomorrow'])('clock.set(%j) throws saying what to write; the clock untouched', (text) => {
    expect(() => mock.clock.set(text)).toThrow(/such as "2030-12-05T00:00:00Z"/);
    expect(mock.clock.now().getTime()).toBe(T0);
  });

  it.each([
    ['2030-12-05T00:00:00Z', Date.UTC(2030, 11, 5)],
    ['2030-12-05T01:00:00+01:00', Date.UTC(2030, 11, 5)],
    ['2028-02-29T12:00:00.250Z', Date.UTC(2028, 1, 29, 12, 0, 0, 250)],
    ['0050-06-01T00:00:00Z', -60_576_249_600_000],
    ['-000001-01-01T00:00:00Z', -62_198_755_200_000],
    ['+275760-09-13T00:00:00Z', 8.64e15],
    ['-271821-04-20T00:00:00Z', -8.64e15],
  ])('%s is accepted by the admin API and the library alike', async (text, ms) => {
    expect((await admin('POST', 'clock', { 'content-type': 'application/json' }, JSON.stringify({ set: text }))).json.now).toBe(new Date(ms).toISOString());
    mock.clock.set(T0);
    mock.clock.set(text);
    expect(mock.clock.now().getTime()).toBe(ms);
  });
});
