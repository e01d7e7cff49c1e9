// A slot migration in a Redis Cluster, step by step as `redis-cli --cluster reshard` sends it
// (CLUSTER SETSLOT … IMPORTING and MIGRATING, MIGRATE key by key, SETSLOT … NODE), paced, of the
// deployment's own slot, under a load of creates through two replicas. Every script call declares
// its keys (and one that never exists), so a node mid-migration answers ASK or TRYAGAIN, which the
// client follows or retries, instead of running a script on keys that are moving: every answer is
// a 201 or 503 state_unavailable with Retry-After, never a 500; no id is handed out twice; the
// store holds exactly the creates answered 201; and every MIGRATE succeeds (no BUSYKEY).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { redisAvailable } from '../support/redis.js';
import { TestCluster, type RedisProcess } from '../support/redis-topologies.js';
import { loadDuring } from '../support/redis-load.js';

const run = redisAvailable();
const KEY = 'mig-key';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!run)('a slot migration under load', () => {
  let cluster: TestCluster;
  const mocks: SharedRunningMock[] = [];
  beforeAll(async () => {
    cluster = await TestCluster.start();
  }, 60_000);
  afterAll(async () => {
    for (const m of mocks) await m.close();
    await cluster?.stop();
  });

  it('answers 201 or 503 at every step, loses no create answered 201, stores none answered otherwise, and never repeats an id', async () => {
    for (let i = 0; i < 2; i++) mocks.push(await startMock({ state: cluster.url, statePrefix: 'mg', keys: [`${KEY}:pro:100000:1000000`] }));
    // Sessions of their own, so the slot holds some dozens of keys and the migration takes seconds.
    for (let i = 0; i < 15; i++) {
      const res = await fetch(`${(mocks[0] as SharedRunningMock).url}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'x-mock-session': `worker:${i}` },
        body: '{"name":"Seed","categoryId":1,"status":"sold"}',
      });
      expect(res.status).toBe(201);
    }
    const source = cluster.primaryOf('{mg}:deploy');
    const target = cluster.nodes.find((n) => n !== source && n.cli('ROLE').startsWith('master')) as RedisProcess;
    const masters = cluster.nodes.filter((n) => n.cli('ROLE').startsWith('master'));
    const slot = source.cli('CLUSTER', 'KEYSLOT', '{mg}:deploy');
    const sourceId = source.cli('CLUSTER', 'MYID');
    const targetId = target.cli('CLUSTER', 'MYID');
    const migrated: string[] = [];
    const report = await loadDuring(mocks, KEY, async () => {
      await pause(300);
      expect(target.cli('CLUSTER', 'SETSLOT', slot, 'IMPORTING', sourceId)).toBe('OK');
      await pause(100);
      expect(source.cli('CLUSTER', 'SETSLOT', slot, 'MIGRATING', targetId)).toBe('OK');
      for (;;) {
        const keys = source.cli('CLUSTER', 'GETKEYSINSLOT', slot, '10').split('\n').filter(Boolean);
        if (keys.length === 0) break;
        for (const key of keys) {
          // One key at a time, paced, as a careful operator (or a slow network) would move them.
          migrated.push(`${key} ${source.cli('MIGRATE', '127.0.0.1', String(target.port), key, '0', '5000')}`);
          await pause(50);
        }
      }
      expect(target.cli('CLUSTER', 'SETSLOT', slot, 'NODE', targetId)).toBe('OK');
      expect(source.cli('CLUSTER', 'SETSLOT', slot, 'NODE', targetId)).toBe('OK');
      for (const node of masters) if (node !== source && node !== target) node.cli('CLUSTER', 'SETSLOT', slot, 'NODE', targetId);
      await pause(300);
    });
    expect(migrated.length).toBeGreaterThan(5);
    for (const line of migrated) expect(line).toMatch(/ OK$/);
    expect(report.wrong).toEqual([]);
    expect(report.after).toBeGreaterThanOrEqual(30);
    expect(new Set(report.ids).size).toBe(report.ids.length);
    expect(cluster.primaryOf('{mg}:deploy')).toBe(target);
    const client = new Redis(target.port, '127.0.0.1');
    try {
      const stored = (await client.lrange('{mg}:s:default:p', 0, -1)).map((json) => (JSON.parse(json) as { id: number }).id);
      expect(stored.sort((a, b) => a - b)).toEqual([...report.ids].sort((a, b) => a - b));
    } finally {
      client.disconnect();
    }
    console.log(`migration: ${migrated.length} keys moved; ${report.ids.length} creates answered 201, ${report.unavailable} answered 503`);
  }, 90_000);
});
