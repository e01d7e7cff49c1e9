// Several instances on one real Redis behave as one mock: exact limits and ids under concurrency,
// admin calls seen everywhere, one hash tag per deployment, and a refused start for a deployment
// started with other settings.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { at, first, type Tuple } from '../support/checked.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();

async function send(
  mock: SharedRunningMock,
  path: string,
  init: { method?: string; key?: string; body?: string; session?: string; agent?: Agent } = {},
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const headers: Record<string, string> = {};
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.session) headers['x-mock-session'] = init.session;
  return new Promise((resolve, reject) => {
    const req = request(`${mock.origin}${path}`, { method: init.method ?? 'GET', headers, agent: init.agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

async function admin(mock: SharedRunningMock, method: string, path: string, body?: unknown, session?: string): Promise<any> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (session) headers['x-mock-session'] = session;
  const res = await fetch(`${mock.origin}/__admin/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return res.json();
}

describe.skipIf(!run)('instances sharing one Redis', () => {
  let redis: TestRedis;
  const mocks: SharedRunningMock[] = [];
  let prefixes = 0;
  /** Starts `n` instances of a fresh deployment (its own prefix) with the clock frozen at T0. */
  async function deployment<N extends number>(n: N, extra: { keys?: string[]; seed?: number } = {}): Promise<Tuple<SharedRunningMock, N>> {
    const prefix = `t${++prefixes}`;
    const started: SharedRunningMock[] = [];
    for (let i = 0; i < n; i++) started.push(await startMock({ state: redis.url, statePrefix: prefix, ...extra }));
    mocks.push(...started);
    await at(started, 0).clock.freeze();
    await at(started, 0).clock.set(T0);
    return first(started, n);
  }

  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterAll(async () => {
    for (const m of mocks) await m.close();
    await redis?.stop();
  });

  it('2,000 requests over 50 connections split across two instances: a 500-per-minute key allows exactly 500', async () => {
    const [a, b] = await deployment(2, { keys: ['shared-500:pro:500:100000'] });
    const agents = Array.from({ length: 50 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    const statuses = await Promise.all(
      Array.from({ length: 2000 }, (_, i) =>
        send(i % 2 === 0 ? a : b, '/v1/pets?limit=1', { key: 'shared-500', agent: at(agents, i % 50) }).then((r) => r.status),
      ),
    );
    for (const agent of agents) agent.destroy();
    expect(statuses.filter((s) => s === 200)).toHaveLength(500);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1500);
  });

  it('200 parallel creates across three instances give 200 distinct ids with no gaps', async () => {
    const three = await deployment(3);
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        send(at(three, i % 3), '/v1/pets', { method: 'POST', key: 'demo-enterprise', body: JSON.stringify({ name: `n${i}`, categoryId: 1 }) }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(200).fill(201));
    const ids = replies.map((r) => JSON.parse(r.body).id as number).sort((x, y) => x - y);
    expect(ids).toEqual(Array.from({ length: 200 }, (_, i) => 51 + i));
    // Read at once from another instance: every answered request is in the journal, in order.
    const journal = (await admin(at(three, 1), 'GET', 'requests')) as { seq: number; reason: string }[];
    expect(journal.map((e) => e.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(journal.map((e) => Number(e.reason.replace('created animal ', ''))).sort((x, y) => x - y)).toEqual(ids);
  });

  it('a create on one instance is found, listed and journalled on another', async () => {
    const [a, b] = await deployment(2);
    const created = await send(a, '/v1/pets', { method: 'POST', key: 'demo-pro', body: '{"name":"Shared","categoryId":4,"status":"pending"}' });
    expect(created.status).toBe(201);
    expect((await send(b, '/v1/pets/51', { key: 'demo-pro' })).body).toBe(created.body);
    const pending = JSON.parse((await send(b, '/v1/pets?status=pending&limit=100', { key: 'demo-pro' })).body) as { id: number }[];
    expect(pending.at(-1)?.id).toBe(51);
    const journal = (await admin(b, 'GET', 'requests')) as { seq: number; method: string; status: number }[];
    expect(journal.map((e) => [e.seq, e.method, e.status])).toEqual([
      [1, 'POST', 201],
      [2, 'GET', 200],
      [3, 'GET', 200],
    ]);
  });

  it('POST /__admin/reset on one instance resets the session for all', async () => {
    const [a, b] = await deployment(2);
    await send(a, '/v1/pets', { method: 'POST', key: 'demo-pro', body: '{"name":"Gone","categoryId":1}' });
    await admin(b, 'POST', 'reset');
    expect((await send(a, '/v1/pets/51', { key: 'demo-pro' })).status).toBe(404);
    expect(await admin(a, 'GET', 'requests')).toHaveLength(1);
  });

  it('a scenario switched and a clock moved on one instance hold on the other, per session', async () => {
    const [a, b] = await deployment(2);
    await admin(a, 'PUT', 'scenario', { name: 'removed' }, 'w1');
    expect((await admin(b, 'GET', 'scenario', undefined, 'w1')).name).toBe('removed');
    expect((await admin(b, 'GET', 'scenario')).name).toBe('default');
    expect((await send(b, '/v1/pets/1', { key: 'demo-pro', session: 'w1' })).status).toBe(410);
    await admin(b, 'POST', 'clock', { advance: '61s' });
    expect(await admin(a, 'GET', 'clock')).toEqual({ now: new Date(T0 + 61_000).toISOString(), frozen: true });
  });

  it.each([
    ['Trailer', 'Expires'],
    ['constructor', 'x'],
    ['X-Done', 'done \u2713'],
  ])("a declared answer header %s is refused by either instance, and the other instance's sessions keep serving", async (name, value) => {
    const [a, b] = await deployment(2);
    const scenario = (headers: Record<string, string>) => ({
      scenario: { description: 'h', operations: [{ operationId: 'o', method: 'GET', path: '/v1/store/orders', answers: [{ status: 200, headers }] }] },
    });
    for (const mock of [a, b]) {
      const refused = await admin(mock, 'PUT', 'scenario', scenario({ [name]: value }), 'hdr');
      expect(refused.code).toBe('scenario_invalid');
      expect(JSON.stringify(refused.details)).toContain(`/operations/0/answers/0/headers/${name}`);
    }
    await admin(a, 'PUT', 'scenario', scenario({ 'X-Note': 'fine' }), 'hdr');
    const served = await send(b, '/v1/store/orders', { key: 'demo-pro', session: 'hdr' });
    expect([served.status, served.headers['x-note']]).toEqual([200, 'fine']);
  });

  it('bans are shared: refusals sent through either instance while a wait runs ban the key on both', async () => {
    const [a, b] = await deployment(2, { keys: ['tiny:free:1:1000'] });
    expect((await send(a, '/v1/pets', { key: 'tiny' })).status).toBe(200);
    // The first 429 starts the wait; its first 8 refusals are forgiven as in flight, the next 10 count (after: 10).
    expect((await send(b, '/v1/pets', { key: 'tiny' })).status).toBe(429);
    await admin(a, 'POST', 'clock', { advance: '2s' });
    for (let i = 0; i < 17; i++) expect((await send(i % 2 ? a : b, '/v1/pets', { key: 'tiny' })).status).toBe(429);
    const banned = await send(a, '/v1/pets', { key: 'tiny' });
    expect(JSON.parse(banned.body).code).toBe('key_banned');
    // The admin API shows keys redacted, a 4-character one as ****.
    expect((await admin(b, 'GET', 'keys')).find((k: { key: string }) => k.key === '****').bannedUntil).toBe(new Date(T0 + 2000 + 5 * 60_000).toISOString());
  });

  it('keeps every key of a deployment under its prefix in one hash tag, and deployments apart', async () => {
    const [a] = await deployment(1);
    const [other] = await deployment(1);
    await send(a, '/v1/pets', { method: 'POST', key: 'demo-pro', body: '{"name":"Tagged","categoryId":1}', session: 'w9' });
    const keys = redis.cli('--scan', '--pattern', `*${a.statePrefix}*`).split('\n');
    expect(keys.length).toBeGreaterThan(3);
    for (const key of keys) expect(key.startsWith(`${a.statePrefix}:`)).toBe(true);
    expect(a.statePrefix).toMatch(/^\{[^{}]+\}$/);
    expect((await send(other, '/v1/pets/51', { key: 'demo-pro', session: 'w9' })).status).toBe(404);
  });

  it.each([
    ['--seed', { seed: 7 }],
    ['--key', { keys: ['extra:pro'] }],
    ['--fixtures', { fixtures: [{ id: 1, name: 'Only', categoryId: 1 }] }],
    ['--scenario', { scenario: 'flaky' }],
  ])('refuses to join a deployment started with another %s, naming it', async (flag, options) => {
    const [first] = await deployment(1);
    const prefix = first.statePrefix.slice(1, -1);
    await expect(startMock({ state: redis.url, statePrefix: prefix, ...options })).rejects.toThrow(`another ${flag} than this replica`);
  });

  it('keeps at most 1,000 X-Mock-Session sessions across instances, dropping the least recently used', async () => {
    const [a, b] = await deployment(2);
    await send(a, '/v1/pets', { method: 'POST', key: 'demo-pro', body: '{"name":"Old","categoryId":1}', session: 'oldest' });
    await send(a, '/v1/pets', { method: 'POST', key: 'demo-pro', body: '{"name":"Kept","categoryId":1}', session: 'kept' });
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(Array.from({ length: 100 }, (_, i) => send(b, '/v1/pets?limit=1', { key: 'demo-pro', session: `s${batch * 100 + i}`, agent })));
      // Using 'kept' now and then keeps it among the most recent.
      await send(a, '/v1/pets?limit=1', { key: 'demo-pro', session: 'kept' });
    }
    agent.destroy();
    expect((await admin(a, 'GET', 'health')).sessions).toBe(1001);
    expect((await send(b, '/v1/pets/51', { key: 'demo-pro', session: 'kept' })).status).toBe(200);
    expect((await send(b, '/v1/pets/51', { key: 'demo-pro', session: 'oldest' })).status).toBe(404);
  });

  it('reports the state engine in /__admin/health', async () => {
    const [a] = await deployment(1);
    const health = await admin(a, 'GET', 'health');
    expect(health.status).toBe('ok');
    expect(health.state).toEqual({ engine: 'redis', url: redis.url, prefix: a.statePrefix, reachable: true });
  });
});
