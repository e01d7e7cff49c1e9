import { describe, expect, it } from 'vitest';
import { adminPage, PAGE_SCRIPT } from '../../src/http/admin-page.js';
import { startMock } from '../../src/index.js';
import { cliLauncher, waitFor } from '../e2e/cli.js';
import { call, post, useMock } from '../support/mock.js';
import { rawRequest } from '../support/raw.js';
import { at } from '../support/checked.js';

const cli = cliLauncher();

const SECRET = 'team-secret-4f9a2c71';
const WRONG = 'wrong-secret-8d1e5b33';
const IN_QUERY = 'query-secret-77a1c9e0';

describe('listening', () => {
  it('the library listens on 127.0.0.1 unless told otherwise', async () => {
    const mock = await startMock();
    try {
      expect(mock.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await mock.close();
    }
  });

  it('the CLI listens on 127.0.0.1 by default and warns about nothing', async () => {
    const r = cli('--port', '0', '--quiet');
    await waitFor(r, /listening on http:\/\/127\.0\.0\.1:\d+\/v1/);
    // Only once it has exited is all it would ever say on stderr in.
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    expect(r.stderr()).toBe('');
  });

  it.each([
    [[], 'its public demo keys and its admin API (unprotected: add --admin-token)'],
    [['--admin-token', 's3cret'], 'its public demo keys'],
  ])('the CLI warns on stderr when --host is not loopback (%j)', async (extra, exposed) => {
    const r = cli('--port', '0', '--quiet', '--host', '0.0.0.0', ...extra);
    const [, port] = await waitFor(r, /listening on http:\/\/0\.0\.0\.0:(\d+)\/v1/);
    // The warning follows the ready line on another stream; give it until the process has said it.
    for (let i = 0; i < 200 && !r.stderr().includes('\n'); i++) await new Promise((done) => setTimeout(done, 25));
    expect(r.stderr()).toBe(
      `petstore-mock: listening on 0.0.0.0, so other machines can reach this mock and ${exposed}; use --host 127.0.0.1 to keep it local.\n`,
    );
    expect((await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).status).toBe(200);
  });
});

describe('a protected admin API', () => {
  const locked = useMock({ adminToken: 's3cret' });
  it.each(['/__admin', '/__admin/', '/__admin/?session=x'])(
    'serves the page at GET %s without the token, with no data in it (the page asks for the token)',
    async (target) => {
      const res = await rawRequest(locked.mock(), `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(res.status).toBe(200);
      expect(res.body).toContain('id="token-form"');
      expect(res.body).not.toContain('demo-');
      expect(res.body).not.toContain('s3cret');
    },
  );

  it('still refuses the page under a host name it does not answer to', async () => {
    const res = await rawRequest(locked.mock(), 'GET /__admin/ HTTP/1.1\r\nHost: rebinding.example\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('admin_host_forbidden');
  });

  it.each([
    '/__admin/requests',
    '/__admin/keys',
    '/__admin//keys',
    '/__admin/%6Beys',
    '/__admin/KEYS',
    '/__admin/keys/',
    '/__admin/../__admin/keys',
    '/__admin/./keys',
    '/__admin/keys?token=wrong',
    '/__admin/clock',
  ])('refuses GET %s without the token', async (target) => {
    const res = await rawRequest(locked.mock(), `GET ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-free\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('admin_unauthorized');
    expect(res.body).not.toContain('demo-enterprise');
  });

  it('refuses a state change without the token and leaves the state alone', async () => {
    const before = locked.mock().clock.now().getTime();
    const res = await fetch(`${locked.mock().origin}/__admin/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"advance":"1d"}',
    });
    expect(res.status).toBe(401);
    expect(locked.mock().clock.now().getTime()).toBe(before);
  });
});

describe.each(['pretty', 'json'])('the %s request log never shows a key in full', (format) => {
  it('not for a good key, a wrong key, a key in the query or a malformed header', async () => {
    const r = cli('--port', '0', '--log-format', format, '--key', `${SECRET}:pro`);
    // The banner's line in pretty, the ready event's field in json.
    const [, url] = await waitFor(r, /(?:listening on |"url":")(http:\/\/127\.0\.0\.1:\d+\/v1)/);
    const banner = r.stdout();
    const sends: [string, Record<string, string>][] = [
      ['/pets?limit=1', { authorization: `Bearer ${SECRET}` }],
      ['/pets/1', { authorization: `Bearer ${SECRET}` }],
      ['/pets?limit=1', { authorization: `Bearer ${WRONG}` }],
      [`/pets?api_key=${IN_QUERY}&limit=2`, {}],
      [`/pets?token=${IN_QUERY}`, {}],
      ['/pets', { authorization: `Bearer ${SECRET} ${WRONG}` }],
      ['/nope', { authorization: `Bearer ${SECRET}` }],
    ];
    for (const [path, headers] of sends) await fetch(`${url}${path}`, { headers });
    await waitFor(r, /nope/);
    const log = r.stdout().slice(banner.length);
    // The banner's line in pretty, the ready event's keys in json: the key shortened in both.
    expect(banner).toContain(format === 'pretty' ? 'team…c71 (pro, 300/min, 10000/day)' : '"key":"team…c71"');
    expect(banner).not.toContain(SECRET);
    expect(log.trim().split('\n')).toHaveLength(sends.length);
    for (const secret of [SECRET, WRONG, IN_QUERY]) expect(log).not.toContain(secret);
    expect(log).toContain('team…c71');
    expect(log).toContain('quer');
  });
});

describe('the pretty log writes what clients sent with control characters escaped', () => {
  it('a key name with a terminal escape and a 10,000-character key reach neither the log nor the answer raw', async () => {
    const r = cli('--port', '0');
    // The banner's line in pretty, the ready event's field in json.
    const [, url] = await waitFor(r, /(?:listening on |"url":")(http:\/\/127\.0\.0\.1:\d+\/v1)/);
    const banner = r.stdout();
    const evil = '\u001b[2J\u001b[31mred\u0007';
    const long = 'k'.repeat(10_000);
    const replies: { code: string; message: string }[] = [];
    for (const key of [evil, long]) {
      const body = `{"name":"A","categoryId":1,${JSON.stringify(key)}:1,${JSON.stringify(key)}:2}`;
      const res = await fetch(`${url}/pets`, { method: 'POST', headers: { authorization: 'Bearer demo-free', 'content-type': 'application/json' }, body });
      replies.push((await res.json()) as { code: string; message: string });
    }
    expect(replies.map((x) => x.code)).toEqual(['invalid_json', 'invalid_json']);
    expect(at(replies, 0).message).toContain(JSON.stringify(evil));
    expect(at(replies, 1).message.length).toBeLessThan(200);
    // The long key is past the string limit before it could appear twice.
    await waitFor(r, /appears twice[^\n]*\n[^\n]*a string is longer than 1000 characters/);
    const log = r.stdout().slice(banner.length);
    expect(log).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(log).toContain('\\u001b[2J');
    expect(log).not.toContain(long);
  });
});

describe('no input is echoed back unescaped', () => {
  const { mock, fresh } = useMock();

  it('a <script> name comes back only inside a JSON string, as JSON, never sniffed', async () => {
    fresh();
    const name = '<script>alert("x")</script>\u2028&';
    const res = await call(mock(), '/v1/pets', post({ name, categoryId: 1 }));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.json.name).toBe(name);
    expect(res.text).toContain(`"name":${JSON.stringify(name)}`);
  });

  it.each([
    ['a petId', '/v1/pets/%3Cimg%20src=x%20onerror=alert(1)%3E'],
    ['a query value', '/v1/pets?limit=%3Cb%3E'],
    ['a query value, unencoded', '/v1/pets?status=<b>'],
    ['an unknown path', '/v1/%3Cscript%3E'],
  ])('an error about %s is JSON with nosniff, and holds the input only as a JSON string', async (_what, target) => {
    const res = await rawRequest(mock(), `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-free\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(JSON.stringify(JSON.parse(res.body))).toBe(res.body);
  });

  it('a parser-level error carries nosniff too', async () => {
    const res = await rawRequest(mock(), 'GET /<x> y HTTP/1.1\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('the admin journal escapes markup, and the admin page writes it with textContent only', async () => {
    fresh();
    await rawRequest(mock(), 'GET /v1/<script>alert(1)</script> HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const res = await fetch(`${mock().origin}/__admin/requests`);
    const text = await res.text();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(text).not.toContain('<script>');
    expect(JSON.parse(text).at(-1).path).toBe('/v1/<script>alert(1)</script>');
    // The page's markup and its script, which is served apart from it (/__admin/admin.js).
    expect(PAGE_SCRIPT).toContain('textContent');
    for (const text of [adminPage(), PAGE_SCRIPT]) expect(text).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });
});
