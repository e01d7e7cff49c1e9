import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { adminCall, type AdminInit, type AdminReply, type ClockJson, type ErrorJson } from '../support/admin.js';
import { T0, call, useMock } from '../support/mock.js';

const { mock, fresh } = useMock();
beforeEach(fresh);

function admin<T = unknown>(path: string, init: AdminInit = {}, m: RunningMock = mock()): Promise<AdminReply<T>> {
  return adminCall<T>(m.origin, path, init);
}

describe('the admin API', () => {
  it('GET health', async () => {
    const health = await admin('health');
    expect({ status: health.status, json: health.json }).toEqual({ status: 200, json: expect.objectContaining({ status: 'ok', scenario: 'default' }) });
  });

  it('GET and POST clock: set, advance and freeze', async () => {
    expect((await admin('clock')).json).toEqual({ now: new Date(T0).toISOString(), frozen: true });
    expect((await admin('clock', { method: 'POST', body: '{"advance":"90s"}' })).json).toEqual({ now: new Date(T0 + 90_000).toISOString(), frozen: true });
    expect((await admin('clock', { method: 'POST', body: '{"set":"2030-12-05T00:00:00Z"}' })).json).toEqual({ now: '2030-12-05T00:00:00.000Z', frozen: true });
    expect((await call(mock(), '/v1/pets/1')).status).toBe(410);
    const running = await admin<ClockJson>('clock', { method: 'POST', body: '{"frozen":false}' });
    expect(running.json.frozen).toBe(false);
  });

  it.each([['{"advance":"soon"}'], ['{"set":"yesterday"}'], ['{"speed":2}'], ['{}'], ['[1]'], ['{"frozen":"yes"}'], ['{not json']])(
    'POST clock %s -> 400 with the Error body',
    async (body) => {
      const res = await admin('clock', { method: 'POST', body });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ code: 'admin_invalid_request', message: expect.stringContaining('petstore-mock'), status: 400 });
    },
  );

  it('GET requests: the journal with what was answered and why, keys redacted', async () => {
    await call(mock(), '/v1/pets?limit=2');
    await call(mock(), '/v1/pets/999999');
    const journal = (await admin('requests')).json;
    expect(journal).toEqual([
      expect.objectContaining({
        seq: 1,
        method: 'GET',
        path: '/v1/pets',
        query: 'limit=2',
        status: 200,
        key: 'demo…ree',
        at: new Date(T0).toISOString(),
        session: 'default',
      }),
      expect.objectContaining({ seq: 2, path: '/v1/pets/999999', status: 404, code: 'pet_not_found', reason: expect.stringContaining('999999') }),
    ]);
    expect(JSON.stringify(journal)).not.toContain('demo-free');
  });

  it('POST reset restores store, counters, clock and journal', async () => {
    const created = await call(mock(), '/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Tmp","categoryId":1}' });
    expect((await admin('reset', { method: 'POST' })).status).toBe(200);
    expect((await admin('requests')).json).toEqual([]);
    expect((await admin<ClockJson>('clock')).json.frozen).toBe(false);
    mock().clock.freeze();
    const after = await call(mock(), `/v1/pets/${created.json.id}`);
    expect(after.status).toBe(404);
    expect(after.headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('GET keys: plan, remaining quota and ban state per key', async () => {
    await call(mock(), '/v1/pets', { key: 'demo-pro' });
    const keys = (await admin<{ key: string }[]>('keys')).json;
    expect(keys.find((k) => k.key === 'demo-pro')).toEqual(expect.objectContaining({ plan: 'pro', remaining: 299, bannedUntil: null }));
  });

  it('selects a session world with X-Mock-Session', async () => {
    await admin('clock', { method: 'POST', body: '{"set":"2031-01-01T00:00:00Z","frozen":true}', headers: { 'x-mock-session': 's1' } });
    expect((await call(mock(), '/v1/pets/1', { headers: { 'x-mock-session': 's1' } })).status).toBe(410);
    expect((await call(mock(), '/v1/pets/1')).status).toBe(200);
  });

  it('serves the HTML page at /__admin/', async () => {
    const res = await fetch(`${mock().origin}/__admin/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('<title>petstore-mock admin</title>');
  });

  it('answers unknown admin routes with 404 and the Error body, and is never under /v1', async () => {
    expect((await admin('nope')).json).toEqual({ code: 'route_not_found', message: expect.any(String), status: 404 });
    expect((await call(mock(), '/v1/__admin/health')).status).toBe(404);
  });
});

describe('--admin-token', () => {
  let locked: RunningMock;
  beforeAll(async () => {
    locked = await startMock({ port: 0, adminToken: 's3cret' });
  });
  afterAll(() => locked.close());

  it('refuses admin calls without the token, accepts them with it', async () => {
    const refused = await admin<ErrorJson>('health', {}, locked);
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe('admin_unauthorized');
    expect((await admin('health', { headers: { authorization: 'Bearer s3cret' } }, locked)).status).toBe(200);
    expect((await admin('health', { headers: { authorization: 'Bearer wrong' } }, locked)).status).toBe(401);
    expect((await fetch(`${locked.origin}/__admin/?token=s3cret`)).status).toBe(200);
    expect((await admin('health', { headers: { 'x-admin-token': 's3cret' } }, locked)).status).toBe(200);
    expect((await fetch(`${locked.origin}/__admin/health?token=s3cret`)).status).toBe(200);
  });

  it('serves the page itself without the token (it holds no data and asks for it), and nothing else', async () => {
    const page = await fetch(`${locked.origin}/__admin/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('id="token-form"');
    for (const path of ['health', 'scenario', 'scenarios', 'clock', 'requests', 'keys']) expect((await admin(path, {}, locked)).status).toBe(401);
    expect((await admin('reset', { method: 'POST' }, locked)).status).toBe(401);
  });
});

describe('looking at a session', () => {
  it.each([
    ['scenario', expect.objectContaining({ name: 'default' })],
    ['clock', expect.objectContaining({ frozen: false })],
    ['keys', expect.arrayContaining([expect.objectContaining({ key: 'demo-free', remaining: 60 })])],
    ['requests', []],
    ['requests/count', expect.objectContaining({ count: 0, session: 'only-looking' })],
    ['journal', expect.objectContaining({ session: 'only-looking', entries: 0 })],
    ['health', expect.objectContaining({ scenario: 'default' })],
  ])('GET %s with X-Mock-Session of an unknown session answers as it would start, without creating it', async (path, shown) => {
    const before = mock()
      .engine.sessions.all()
      .map((w) => w.id);
    const res = await admin(path, { session: 'only-looking' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(shown);
    expect(
      mock()
        .engine.sessions.all()
        .map((w) => w.id),
    ).toEqual(before);
  });

  it('an existing session is shown as it is; a change (reset, clock) creates one', async () => {
    await call(mock(), '/v1/pets?limit=1', { headers: { 'x-mock-session': 'seen-session' } });
    expect((await admin('requests', { session: 'seen-session' })).json).toHaveLength(1);
    expect((await admin('clock', { method: 'POST', body: { advance: '1s' }, session: 'changed-session' })).status).toBe(200);
    expect(
      mock()
        .engine.sessions.all()
        .map((w) => w.id),
    ).toEqual(expect.arrayContaining(['seen-session', 'changed-session']));
  });

  it('an unusable session id is still refused', async () => {
    expect((await admin<ErrorJson>('clock', { session: 'no spaces' })).json.code).toBe('invalid_session');
  });
});
