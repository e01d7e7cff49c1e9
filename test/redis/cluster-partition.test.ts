// A real partition between two replicas and a whole Redis Cluster (six nodes in a network
// namespace of the test's own), the link cut for 3 s and then for 10 s under a steady load of
// creates: as on one Redis (partition.test.ts), the store holds the creates answered 201 (and
// at most the calls a cut held back in flight), every answer is 201 or 503 state_unavailable within the bound, and each replica answers
// 201 again within 3 s of the link's return (a timed-out command drops the cluster's connections,
// so none waits out TCP's backed-off retries).
import { spawnSync } from 'node:child_process';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { PartitionedCluster, netnsUnavailable } from '../support/netns.js';
import { cutUnderLoad, expectNothingLost, summary } from '../support/partition-load.js';

const unavailable = netnsUnavailable();
const COMMAND_TIMEOUT_MS = 1000;

describe.skipIf(unavailable !== undefined)('a network partition between the replicas and a Redis Cluster', () => {
  let cluster: PartitionedCluster;
  const mocks: SharedRunningMock[] = [];
  beforeAll(async () => {
    cluster = await PartitionedCluster.start();
    for (let i = 0; i < 2; i++) mocks.push(await startMock({ state: cluster.url, statePrefix: 'cut' }));
  }, 30_000);
  afterAll(async () => {
    for (const m of mocks) await m.close().catch(() => undefined);
    await cluster?.stop();
  });

  it('stores the creates answered 201 and none answered otherwise but those a cut held back, holds no answer past the bound, and recovers within 3 s of the link coming back', async () => {
    const run = await cutUnderLoad(mocks, cluster, [3000, 10_000]).catch((error: unknown) => {
      // What each node thought of the Cluster then: a failover the load brought about, or not.
      const states = cluster.ports.map((port) => {
        const info = spawnSync('redis-cli', ['-h', cluster.address, '-p', String(port), 'CLUSTER', 'INFO'], { encoding: 'utf8' }).stdout;
        const role = spawnSync('redis-cli', ['-h', cluster.address, '-p', String(port), 'ROLE'], { encoding: 'utf8' }).stdout.split('\n')[0];
        return `${port}: ${/cluster_state:\w+/.exec(info)?.[0] ?? 'no answer'} ${/cluster_current_epoch:\d+/.exec(info)?.[0] ?? ''} ${role ?? ''}`;
      });
      throw new Error(`${error instanceof Error ? error.message : String(error)}; the nodes: ${states.join(', ')}`);
    });
    const client = new Cluster([{ host: cluster.address, port: cluster.ports[0] as number }]);
    try {
      const stored = (await client.lrange('{cut}:s:default:p', 0, -1)).map((json) => (JSON.parse(json) as { id: number }).id);
      expectNothingLost(run, stored, COMMAND_TIMEOUT_MS);
    } finally {
      client.disconnect();
    }
    console.log(summary('cluster partition', run));
  }, 60_000);
});
