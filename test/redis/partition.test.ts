// A real partition between two replicas and Redis: Redis in a network namespace of the test's
// own, the link cut for 3 s and then for 10 s under a steady load of creates. 503 means not
// stored: the store holds every create answered 201 and no other (a command stuck in a socket
// while the link was down, given up and answered 503, must not run when the link returns), but
// for the case docs/scale-out.md names (a call Redis ran as the link went down, its answer held
// back by the cut, is stored and answered 503 after the command timeout); every answer is
// 201 or 503 state_unavailable with Retry-After, none held past twice the command timeout; and
// each replica answers 201 again within 3 s of the link's return, whatever the cut's length.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { PartitionedRedis, netnsUnavailable } from '../support/netns.js';
import { cutUnderLoad, expectNothingLost, summary } from '../support/partition-load.js';

const unavailable = netnsUnavailable();
const COMMAND_TIMEOUT_MS = 1000;

describe.skipIf(unavailable !== undefined)('a network partition between the replicas and Redis', () => {
  let redis: PartitionedRedis;
  const mocks: SharedRunningMock[] = [];
  beforeAll(async () => {
    redis = await PartitionedRedis.start();
    for (let i = 0; i < 2; i++) mocks.push(await startMock({ state: redis.url, statePrefix: 'cut' }));
  });
  afterAll(async () => {
    for (const m of mocks) await m.close().catch(() => undefined);
    await redis?.stop();
  });

  it('stores the creates answered 201 and none answered otherwise but those a cut held back, holds no answer past the bound, and recovers within 3 s of the link coming back', async () => {
    const run = await cutUnderLoad(mocks, redis, [3000, 10_000]);
    const client = new Redis(redis.url);
    try {
      const stored = (await client.lrange('{cut}:s:default:p', 0, -1)).map((json) => (JSON.parse(json) as { id: number }).id);
      expectNothingLost(run, stored, COMMAND_TIMEOUT_MS);
    } finally {
      client.disconnect();
    }
    console.log(summary('partition', run));
  }, 60_000);
});
