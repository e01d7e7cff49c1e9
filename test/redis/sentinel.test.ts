// Sentinel: the mock takes the sentinels' addresses and the primary's name, follows a promotion
// in the middle of load (503 state_unavailable during it, never a 500, no id handed out twice, the
// quota carries on), and a replica pointed at the old primary's own address does not register
// again on it when it comes back empty.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { redisAvailable } from '../support/redis.js';
import { TestSentinel, sentinelAvailable } from '../support/redis-topologies.js';
import { loadDuring, untilReachable } from '../support/redis-load.js';

const run = redisAvailable() && sentinelAvailable();
const KEY = 'load-key';

async function create(mock: SharedRunningMock): Promise<{ status: number; body: any }> {
  const res = await fetch(`${mock.url}/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: '{"name":"Direct","categoryId":1}',
  });
  return { status: res.status, body: await res.json() };
}

describe.skipIf(!run)('behind Redis Sentinel', () => {
  let group: TestSentinel;
  const mocks: SharedRunningMock[] = [];

  beforeAll(async () => {
    group = await TestSentinel.start();
  }, 60_000);
  afterAll(async () => {
    for (const m of mocks) await m.close();
    await group?.stop();
  });

  it("refuses a sentinel's address given as a plain Redis URL, showing the form to use", async () => {
    const port = group.sentinels[0]?.port;
    await expect(startMock({ state: `redis://127.0.0.1:${port}/0` })).rejects.toThrow(
      `--state redis://127.0.0.1:${port}/0 is a Redis Sentinel, which holds no data; name the sentinels and the primary they watch: redis+sentinel://`,
    );
  });

  it('follows a promotion under load, and a replica on the old primary address refuses it back empty', async () => {
    const options = { statePrefix: 'sn', keys: [`${KEY}:pro:100000:1000000`], stateTimeoutMs: 500 };
    for (let i = 0; i < 2; i++) mocks.push(await startMock({ state: group.url, ...options }));
    const direct = await startMock({ state: `redis://127.0.0.1:${group.primary.port}/0`, ...options });
    const [a, b] = mocks as [SharedRunningMock, SharedRunningMock];
    mocks.push(direct);
    await a.clock.freeze();
    await a.clock.set(T0);
    expect((await create(direct)).status).toBe(201);
    const health = (await (await fetch(`${b.origin}/__admin/health`)).json()) as { state: { url: string } };
    expect(health.state.url).toBe(group.url);

    let before = 0;
    const oldPort = group.primary.port;
    const report = await loadDuring([a, b], KEY, async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      before = Number(group.primary.cli('HGET', '{sn}:s:default', 'nid')) - 51;
      await group.primary.kill();
      await group.promotedFrom(oldPort);
    });
    expect(report.wrong).toEqual([]);
    expect(report.unavailable).toBeGreaterThan(0);
    expect(report.after, report.lastUnavailable).toBeGreaterThanOrEqual(30);
    expect(new Set(report.ids).size).toBe(report.ids.length);
    expect(before).toBeGreaterThan(0);
    expect(report.lastRemaining).toBeLessThanOrEqual(100_000 - before - 30);
    expect(group.primaryPort()).toBe(group.replica.port);

    // The old primary comes back without its data: the replica bound to its address must not
    // start the world over there (ids from 51 again), whatever Sentinel makes of it meanwhile.
    await group.primary.launch();
    const seen = new Set(report.ids);
    for (let i = 0; i < 10; i++) {
      const reply = await create(direct);
      expect(reply.status).toBe(503);
      expect(reply.body.code).toBe('state_unavailable');
      expect(seen.has(reply.body.id)).toBe(false);
    }
    // The replicas that follow Sentinel still serve the deployment, from the promoted primary.
    await untilReachable(a);
    const after = await create(a);
    expect(after.status).toBe(201);
    expect(seen.has(after.body.id)).toBe(false);
  }, 60_000);
});
