// A Redis Cluster of six real nodes: the mock takes any node's address, keeps a deployment's keys
// in one slot, follows MOVED, and rides out the failover of the primary serving that slot in the
// middle of load: 503 state_unavailable during it, never a 500, no id handed out twice, and the
// quota carries on from the promoted replica's data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { redisAvailable } from '../support/redis.js';
import { TestCluster } from '../support/redis-topologies.js';
import { loadDuring, untilReachable } from '../support/redis-load.js';

const run = redisAvailable();
const KEY = 'load-key';

describe.skipIf(!run)('on a Redis Cluster', () => {
  let cluster: TestCluster;
  const mocks: SharedRunningMock[] = [];

  beforeAll(async () => {
    cluster = await TestCluster.start();
  }, 60_000);
  afterAll(async () => {
    for (const m of mocks) await m.close();
    await cluster?.stop();
  });

  it('joins through a node that does not serve the slot, follows a failover under load, and never repeats an id', async () => {
    const owner = cluster.primaryOf('{cl}:deploy');
    const other = cluster.nodes.find((n) => n !== owner && n.cli('ROLE').startsWith('master')) ?? cluster.nodes[0];
    const url = `redis://127.0.0.1:${other?.port}/0`;
    for (let i = 0; i < 2; i++) mocks.push(await startMock({ state: url, statePrefix: 'cl', keys: [`${KEY}:pro:100000:1000000`], stateTimeoutMs: 500 }));
    const [a, b] = mocks as [SharedRunningMock, SharedRunningMock];
    await a.clock.freeze();
    await a.clock.set(T0);
    // Every key of the deployment sits on the slot's primary.
    expect(owner.cli('EXISTS', '{cl}:deploy')).toBe('1');
    const health = (await (await fetch(`${b.origin}/__admin/health`)).json()) as { status: string };
    expect(health.status).toBe('ok');

    let before = 0;
    const report = await loadDuring(mocks, KEY, async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Creates the primary holds when it dies (its replica has them too, in sync on one host).
      before = Number(owner.cli('HGET', '{cl}:s:default', 'nid')) - 51;
      await owner.kill();
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    expect(report.wrong).toEqual([]);
    expect(report.unavailable).toBeGreaterThan(0);
    expect(report.after, report.lastUnavailable).toBeGreaterThanOrEqual(30);
    expect(new Set(report.ids).size).toBe(report.ids.length);
    // The quota went on counting from the data the promoted replica holds: it did not start over.
    expect(before).toBeGreaterThan(0);
    expect(report.lastRemaining).toBeLessThanOrEqual(100_000 - before - 30);
    // After the failover both replicas serve from the new primary.
    for (const m of mocks) {
      await untilReachable(m);
      expect((await fetch(`${m.url}/pets/51`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
    }
    expect((await fetch(`${a.origin}/__admin/health`)).status).toBe(200);
  }, 60_000);
});
