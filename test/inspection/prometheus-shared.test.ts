// A real Prometheus (Debian's prometheus package) scrapes three replicas of one deployment on a
// real redis-server, and the shared-state queries of docs/inspection.md#metrics run against what
// it stored: sum() of the deployment's sessions is the deployment's count, shown by one replica,
// also after that replica stops. Every wait polls Prometheus' API; none sleeps for a scrape.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { TestPrometheus, until } from '../support/prometheus.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();
const page = readFileSync(new URL('../../docs/inspection.md', import.meta.url), 'utf8');
/** The queries the page adds for a shared state: the block after the paragraph that says so. */
const shared = (/^On a shared state, add[\s\S]*?```promql\n([\s\S]*?)```/m.exec(page)?.[1] ?? '')
  .split('\n')
  .filter((line) => line !== '' && !line.startsWith('#'));
const SESSIONS = 'sum(petstore_mock_deployment_sessions)';
const poll = { timeout: 30_000, interval: 200 };

describe.skipIf(!run)('a real Prometheus scraping three replicas of a shared state', () => {
  let redis: TestRedis;
  let prometheus: TestPrometheus;
  const replicas: SharedRunningMock[] = [];

  beforeAll(async () => {
    redis = await TestRedis.start();
    for (let i = 0; i < 3; i++) replicas.push(await startMock({ state: redis.url, statePrefix: 'prom' }));
    // Four sessions besides the default one, made on different replicas.
    for (let i = 0; i < 4; i++) {
      const m = replicas[i % 3] as SharedRunningMock;
      const res = await fetch(`${m.url}/pets`, { headers: { authorization: 'Bearer demo-pro', 'x-mock-session': `prom-${i}` } });
      expect(res.status).toBe(200);
    }
    prometheus = await TestPrometheus.start(replicas.map((m) => m.port));
    await until(
      async () => (await prometheus.single('count(petstore_mock_build_info)')) === 3,
      30_000,
      () => `Prometheus did not scrape the three replicas:\n${prometheus.log}`,
    );
  }, 120_000);

  afterAll(async () => {
    await prometheus?.stop();
    for (const m of replicas.splice(0)) await m.close();
    await redis?.stop();
  });

  it("runs the page's shared-state queries; sum() of the deployment's sessions is its count, also after the replica that shows it stops", async () => {
    expect(shared).toEqual(['sum by (kind) (rate(petstore_mock_state_errors_total[5m]))', 'min(petstore_mock_state_up)', SESSIONS]);
    await expect.poll(() => prometheus.single(SESSIONS), poll).toBe(5);
    for (const promql of shared) {
      // rate() has an answer once two scrapes of each replica are in.
      await expect.poll(async () => (await prometheus.query(promql)).length, { ...poll, message: promql }).toBeGreaterThan(0);
      const result = await prometheus.query(promql);
      for (const sample of result) expect(Number.isNaN(Number(sample.value[1])), promql).toBe(false);
    }
    expect(await prometheus.single('min(petstore_mock_state_up)')).toBe(1);
    const shown = await prometheus.query('petstore_mock_deployment_sessions');
    expect(shown).toHaveLength(1);

    // The replica that shows it stops (leaving the deployment); the first of the others takes over.
    const reporter = replicas.find((m) => shown[0]?.metric.instance === `127.0.0.1:${m.port}`) as SharedRunningMock;
    expect(reporter).toBeDefined();
    await reporter.close();
    replicas.splice(replicas.indexOf(reporter), 1);
    await expect
      .poll(async () => (await prometheus.query('petstore_mock_deployment_sessions')).map((s) => s.metric.instance), poll)
      .toEqual([expect.not.stringMatching(`:${reporter.port}$`)]);
    expect(await prometheus.single(SESSIONS)).toBe(5);
    expect(prometheus.log).toBe('');
  }, 90_000);
});
