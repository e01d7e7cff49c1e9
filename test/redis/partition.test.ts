// A real partition between two replicas and Redis: Redis in a network namespace of the test's
// own, the link cut for 3 s and then for 10 s under a steady load of creates. 503 means not
// stored: the store holds exactly the creates answered 201 (a command stuck in a socket while the
// link was down, given up and answered 503, must not run when the link returns); every answer is
// 201 or 503 state_unavailable with Retry-After, none held past twice the command timeout; and
// each replica answers 201 again within 3 s of the link's return, whatever the cut's length.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { PartitionedRedis, netnsUnavailable } from '../support/netns.js';

const unavailable = netnsUnavailable();
const COMMAND_TIMEOUT_MS = 1000;

interface Answer {
  replica: number;
  sentAt: number;
  ms: number;
  status: number;
  code?: string;
  retryAfter: string | null;
  id?: number;
}

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

  it('stores exactly the creates answered 201, holds no answer past the bound, and recovers within 3 s of the link coming back', async () => {
    const answers: Answer[] = [];
    let running = true;
    let n = 0;
    const worker = async (replica: number): Promise<void> => {
      const mock = mocks[replica] as SharedRunningMock;
      while (running) {
        const sentAt = performance.now();
        const res = await fetch(`${mock.url}/pets`, {
          method: 'POST',
          headers: { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json' },
          body: JSON.stringify({ name: `p${++n}`, categoryId: 1 }),
        });
        const body = (await res.json()) as { id?: number; code?: string };
        answers.push({
          replica,
          sentAt,
          ms: performance.now() - sentAt,
          status: res.status,
          code: body.code,
          retryAfter: res.headers.get('retry-after'),
          id: body.id,
        });
        // A steady pace, not a wait for anything: the load goes on through the cut.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    /** Resolves once every replica answered 201 to a create sent after `since`; gives when each did. */
    const recovered = async (since: number): Promise<number[]> => {
      for (;;) {
        const firsts = mocks.map((_, replica) => answers.find((a) => a.replica === replica && a.sentAt >= since && a.status === 201));
        if (firsts.every((a) => a !== undefined)) return firsts.map((a) => (a as Answer).sentAt + (a as Answer).ms - since);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const workers = [0, 0, 1, 1].map((replica) => worker(replica));
    const recovery: number[] = [];
    const cuts: { from: number; to: number }[] = [];
    try {
      await recovered(performance.now());
      for (const lengthMs of [3000, 10_000]) {
        // A second of steady load first, so that the cut finds calls in flight.
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const from = performance.now();
        redis.cut();
        // The cut's length is real time: the point is what TCP and the client do over it.
        await new Promise((resolve) => setTimeout(resolve, lengthMs));
        redis.restore();
        const to = performance.now();
        cuts.push({ from, to });
        recovery.push(...(await recovered(to)));
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      redis.restore();
      running = false;
      await Promise.all(workers);
    }

    // Every answer is a 201 or the 503 of an unavailable state, and none was held past the bound.
    for (const a of answers) {
      expect([201, 503]).toContain(a.status);
      if (a.status === 503) {
        expect(a.code).toBe('state_unavailable');
        expect(a.retryAfter).toBe('1');
      }
      expect(a.ms).toBeLessThanOrEqual(2 * COMMAND_TIMEOUT_MS + 300);
    }
    // Each cut was felt: creates sent during it were answered 503.
    for (const { from, to } of cuts) expect(answers.some((a) => a.sentAt > from && a.sentAt < to && a.status === 503)).toBe(true);
    for (const ms of recovery) expect(ms).toBeLessThanOrEqual(3000);

    const answered = answers.filter((a) => a.status === 201).map((a) => a.id as number);
    expect(new Set(answered).size).toBe(answered.length);
    const client = new Redis(redis.url);
    try {
      const stored = (await client.lrange('{cut}:s:default:p', 0, -1)).map((json) => (JSON.parse(json) as { id: number }).id);
      expect(stored.sort((a, b) => a - b)).toEqual(answered.sort((a, b) => a - b));
    } finally {
      client.disconnect();
    }
    console.log(
      `partition: ${answers.length} creates, ${answered.length} answered 201, ${answers.length - answered.length} answered 503; ` +
        `longest answer ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms; recovery after the link's return ${recovery.map((ms) => Math.round(ms)).join(', ')} ms`,
    );
  }, 60_000);
});
