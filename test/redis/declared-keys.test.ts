// Every script call declares every key it touches, on a single node too (where Redis does not
// check): a real Redis watched with MONITOR while two replicas run every kind of call — API
// decisions in batches, sessions created past the LRU's room (a session dropped), journal
// flushes and reads, resets, clocks, a scenario switched to and back, snapshots and restores, a scenario object, declared operations, the session list,
// evictions, a look at an unknown session, joining, leaving and `state clear`.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { clearDeployment } from '../../src/state-redis/deployment.js';
import { StateConnection } from '../../src/state-redis/connection.js';
import { KeyWatch } from '../support/declared-keys.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();
const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}.yaml`, import.meta.url));
const AUTH = { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json' };

describe.skipIf(!run)('declared keys', () => {
  let redis: TestRedis;
  let watch: KeyWatch;
  beforeAll(async () => {
    redis = await TestRedis.start();
    watch = await KeyWatch.start(redis.url);
  });
  afterAll(async () => {
    watch?.stop();
    await redis?.stop();
  });

  it('no script call touches a key it did not declare', async () => {
    const mocks: SharedRunningMock[] = [];
    for (let i = 0; i < 2; i++) mocks.push(await startMock({ state: redis.url, statePrefix: 'dk', maxSessions: 3 }));
    const [a, b] = mocks as [SharedRunningMock, SharedRunningMock];
    const sessions = ['default', 's:1', 's:2', 's:3', 's:4', 's:5', 'default:jp'];
    const requests = [];
    for (let n = 0; n < 140; n++) {
      const session = sessions[n % sessions.length] as string;
      const headers = { ...AUTH, ...(session === 'default' ? {} : { 'x-mock-session': session }) };
      const mock = n % 2 === 0 ? a : b;
      requests.push(
        n % 3 === 0
          ? fetch(`${mock.url}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `n${n}`, categoryId: 1, status: 'sold' }) })
          : fetch(`${mock.url}/pets?limit=5${n % 2 ? '&status=sold' : ''}`, { headers }),
      );
    }
    const statuses = (await Promise.all(requests)).map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);
    await a.clock.freeze();
    await b.clock.advance('90s');
    await a.session('s:9').useScenario(fixture('short-journal'));
    await b.session('s:9').reset();
    await a.session('s:9').useScenario(fixture('frozen-start'));
    await b.session('s:9').reset();
    expect(await a.requests()).not.toHaveLength(0);
    await b.session('s:4').requests();
    await a.session('never-seen').requests();
    expect((await b.session('s:4').snapshot()).store.nextId).toBeGreaterThan(0);
    expect((await a.session('never-seen').snapshot()).session).toBe('never-seen');
    await a.session('s:10').restore(await b.session('s:4').snapshot());
    expect(
      (await fetch(`${b.origin}/__admin/scenario`, { method: 'PUT', headers: { 'x-mock-session': 's:11' }, body: '{"scenario":{"description":"x"}}' })).status,
    ).toBe(200);
    // A declared operation's counter lives in the session's hash: answers in order across replicas.
    await a.session('s:12').useScenario(fixture('declared'));
    const orders = [];
    for (const mock of [a, b, a, b]) orders.push((await fetch(`${mock.url}/store/orders`, { headers: { ...AUTH, 'x-mock-session': 's:12' } })).status);
    expect(orders).toEqual([200, 200, 503, 200]);
    expect((await b.sessions()).length).toBeGreaterThan(1);
    expect((await fetch(`${a.origin}/__admin/evictions`)).status).toBe(200);
    expect((await fetch(`${b.origin}/__admin/health`)).status).toBe(200);
    await a.reset();
    for (const m of mocks) await m.close();
    const conn = await StateConnection.open(redis.url);
    expect((await clearDeployment(conn, '{dk}', 'stale')).deleted).toBeGreaterThan(10);
    await conn.close();

    expect(watch.calls).toBeGreaterThan(20);
    expect(await watch.undeclared()).toEqual([]);
  }, 60_000);
});
