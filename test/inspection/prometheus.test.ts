import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { TestPrometheus, until } from '../support/prometheus.js';

// A real Prometheus (Debian's prometheus package) scrapes a running mock every second, and the
// dashboard queries of docs/inspection.md#metrics run against what it stored. Every wait polls
// Prometheus' API for the samples it needs; none sleeps for a scrape to happen.

const page = readFileSync(new URL('../../docs/inspection.md', import.meta.url), 'utf8');
const section = page.slice(page.indexOf('## Metrics'));
/** The printed queries, each with the comment line above it as its title. */
const queries = (/```promql\n([\s\S]*?)```/.exec(section)?.[1] ?? '').split('\n').reduce<{ title: string; query: string }[]>((list, line, i, lines) => {
  if (line !== '' && !line.startsWith('#')) list.push({ title: lines[i - 1]?.startsWith('#') ? (lines[i - 1] as string).slice(2) : line, query: line });
  return list;
}, []);

let mock: RunningMock;
let prometheus: TestPrometheus;
const query = (promql: string) => prometheus.query(promql);
const single = (promql: string) => prometheus.single(promql);

const call = (path: string, key?: string): Promise<Response> => fetch(`${mock.url}${path}`, key ? { headers: { authorization: `Bearer ${key}` } } : {});

beforeAll(async () => {
  mock = await startMock({ keys: ['tiny:pro:1:1000'] });
  mock.clock.freeze();
  prometheus = await TestPrometheus.start([mock.port]);
  // One scrape of the idle mock in: every counter is already there, at 0.
  await until(
    async () => (await single('petstore_mock_bans_total{plan="pro"}')) === 0,
    30_000,
    () => `no scrape of the mock:\n${prometheus.log}`,
  );
}, 120_000);

afterAll(async () => {
  await prometheus?.stop();
  await mock?.close();
});

describe('a real Prometheus scraping the mock', () => {
  it('runs every dashboard query of docs/inspection.md on the scraped series', async () => {
    expect(queries.length).toBeGreaterThanOrEqual(8);
    // Traffic of every kind: successes on three plans, 401s, 404s, and a key driven into a ban.
    for (const key of ['demo-free', 'demo-pro', 'demo-enterprise']) await call('/pets?limit=2', key);
    await call('/pets');
    await call('/pets/999999', 'demo-pro');
    let banned = false;
    for (let i = 0; i < 50 && !banned; i++) banned = ((await (await call('/pets', 'tiny')).json()) as { code?: string }).code === 'key_banned';
    expect(banned).toBe(true);
    // The first ban's increase is seen (the counter was scraped at 0 before it), once two
    // scrapes after the traffic are in.
    await expect.poll(() => single('sum(increase(petstore_mock_bans_total{plan="pro"}[1m]))'), { timeout: 30_000, interval: 200 }).toBeGreaterThan(0);
    await expect.poll(() => single('sum(petstore_mock_requests_total{code="key_banned",plan="pro"})'), { timeout: 30_000, interval: 200 }).toBe(1);

    for (const { title, query: promql } of queries) {
      const result = await query(promql);
      expect(result.length, `${title}: ${promql}`).toBeGreaterThan(0);
      for (const sample of result) expect(Number.isNaN(Number(sample.value[1])), `${title}: ${promql}`).toBe(false);
    }
    const by = async (promql: string): Promise<Record<string, number>> =>
      Object.fromEntries((await query(promql)).map((s) => [Object.values(s.metric).join('/'), Number(s.value[1])]));
    const refusals = await by(queries.find((q) => q.query.includes('status="429"'))?.query ?? '');
    expect(Object.keys(refusals)).toEqual(expect.arrayContaining(['rate_limited/pro', 'key_banned/pro']));
    expect(refusals['rate_limited/pro']).toBeGreaterThan(0);
    expect(await by('sum by (plan) (increase(petstore_mock_bans_total[1h]))')).toMatchObject({ pro: expect.any(Number), free: 0 });
    expect(await single('sum(petstore_mock_sessions)')).toBe(1);
    expect(await by('count by (version) (petstore_mock_build_info)')).toEqual({ [JSON.parse(readFileSync('package.json', 'utf8')).version as string]: 1 });
    const p99 = await single(queries.find((q) => q.query.startsWith('histogram_quantile'))?.query ?? '');
    expect(p99).toBeGreaterThan(0);
    expect(p99).toBeLessThanOrEqual(10);
    // Prometheus' own labels, not ones of the mock renamed to exported_*.
    const info = await query('petstore_mock_build_info');
    expect(Object.keys(info[0]?.metric ?? {}).sort()).toEqual(['__name__', 'instance', 'job', 'node_version', 'state', 'version']);
    expect(prometheus.log).toBe('');
  }, 90_000);
});
