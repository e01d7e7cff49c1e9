// The deployment's gauges on a shared state are shown by one replica only, the first live replica
// id, so that `sum()` over the replicas' scrapes is the deployment's count: checked with two and
// three replicas of one deployment on a real redis-server, through a replica that leaves and one
// that stops beating without leaving (its heartbeat's expiry in Redis written by the test).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();
const GAUGE = 'petstore_mock_deployment_sessions';

/** What one replica's scrape says of the deployment's sessions: whether the family is there, and its sample if any. */
async function scrape(m: SharedRunningMock): Promise<{ typed: boolean; value: number | undefined }> {
  const text = await (await fetch(`${m.origin}/__admin/metrics`)).text();
  const sample = new RegExp(`^${GAUGE} (\\d+)$`, 'm').exec(text);
  return { typed: text.includes(`# TYPE ${GAUGE} gauge`), value: sample ? Number(sample[1]) : undefined };
}

/** Every replica's scrape: how many showed a sample, and their sum. */
async function sumOver(replicas: SharedRunningMock[]): Promise<{ reporters: number; sum: number; typed: boolean[] }> {
  const scrapes = [];
  for (const m of replicas) scrapes.push(await scrape(m));
  const shown = scrapes.filter((s) => s.value !== undefined);
  return { reporters: shown.length, sum: shown.reduce((n, s) => n + (s.value as number), 0), typed: scrapes.map((s) => s.typed) };
}

async function deploymentSessions(m: SharedRunningMock): Promise<number> {
  return ((await (await fetch(`${m.origin}/__admin/health`)).json()) as { sessions: number }).sessions;
}

describe.skipIf(!run)("the deployment's gauges on a shared state", () => {
  let redis: TestRedis;
  const mocks: SharedRunningMock[] = [];
  let prefixes = 0;
  const prefix = (): string => `dm${++prefixes}`;
  async function replicas(statePrefix: string, n: number): Promise<SharedRunningMock[]> {
    const started: SharedRunningMock[] = [];
    for (let i = 0; i < n; i++) started.push(await startMock({ state: redis.url, statePrefix }));
    mocks.push(...started);
    return started;
  }
  /** Makes sessions by requests spread over the replicas; the deployment then holds these and the default one. */
  async function sessions(over: SharedRunningMock[], count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const m = over[i % over.length] as SharedRunningMock;
      const res = await fetch(`${m.url}/pets`, { headers: { authorization: 'Bearer demo-pro', 'x-mock-session': `gauge-${i}` } });
      expect(res.status).toBe(200);
    }
  }

  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterEach(async () => {
    for (const m of mocks.splice(0)) await m.close();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it.each([
    [2, 3],
    [3, 5],
  ])('with %i replicas and %i sessions made, one replica shows the gauge and sum() over them is the count', async (n, made) => {
    const all = await replicas(prefix(), n);
    await sessions(all, made);
    const expected = made + 1;
    for (const m of all) expect(await deploymentSessions(m)).toBe(expected);
    const seen = await sumOver(all);
    expect(seen).toEqual({ reporters: 1, sum: expected, typed: all.map(() => true) });
  });

  it('a replica that leaves hands the gauge to the first of those left, at their next scrape', async () => {
    const all = await replicas(prefix(), 3);
    await sessions(all, 4);
    const reporter = await (async () => {
      for (const m of all) if ((await scrape(m)).value !== undefined) return m;
      throw new Error('no replica showed the gauge');
    })();
    await reporter.close();
    mocks.splice(mocks.indexOf(reporter), 1);
    const left = all.filter((m) => m !== reporter);
    expect(await sumOver(left)).toEqual({ reporters: 1, sum: 5, typed: [true, true] });
    // Down to one replica, that one shows it.
    for (const m of left.slice(0, -1)) {
      await m.close();
      mocks.splice(mocks.indexOf(m), 1);
    }
    expect(await sumOver(left.slice(-1))).toEqual({ reporters: 1, sum: 5, typed: [true] });
  });

  it('a replica that stops beating without leaving keeps the gauge until its heartbeat expires, then the first live one shows it', async () => {
    const p = prefix();
    const all = await replicas(p, 2);
    await sessions(all, 2);
    // A replica id before every host name ('!' sorts before letters, digits, '.' and '-'), alive for a minute.
    const expiresAt = (Number(redis.cli('TIME').split('\n')[0]) + 60) * 1000;
    expect(redis.cli('HSET', `{${p}}:replicas`, '!gone', String(expiresAt))).toBe('1');
    // Until its heartbeat expires, the stopped replica holds the role: a gap, not a double count.
    expect(await sumOver(all)).toEqual({ reporters: 0, sum: 0, typed: [true, true] });
    expect(redis.cli('HSET', `{${p}}:replicas`, '!gone', '1')).toBe('0');
    expect(await sumOver(all)).toEqual({ reporters: 1, sum: 3, typed: [true, true] });
    expect(redis.cli('HEXISTS', `{${p}}:replicas`, '!gone')).toBe('0');
  });
});
