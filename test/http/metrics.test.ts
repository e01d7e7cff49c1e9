// GET /__admin/metrics on the in-memory mock: Prometheus text with API answers by status, code
// and plan, their durations, bans started, sessions, the build and the process (no Redis
// series), every counter shown at 0 before its first event, and accepted by `promtool check
// metrics`. /__admin/health names the instance and counts uptime from the start of the process.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { Metrics } from '../../src/metrics.js';

/** The samples of a scrape: `name{labels}` -> value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

async function scrape(mock: RunningMock): Promise<Map<string, number>> {
  return samples(await (await fetch(`${mock.origin}/__admin/metrics`)).text());
}

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const requests = (status: number, code: string, plan: string): string => `petstore_mock_requests_total{status="${status}",code="${code}",plan="${plan}"}`;
const PLANS = ['free', 'pro', 'business', 'enterprise'];

describe('GET /__admin/metrics (in memory)', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ keys: ['tiny:pro:1:1000'] });
    mock.clock.freeze();
  });
  afterAll(async () => {
    await mock.close();
  });

  it('shows every counter at 0 before its first event, so increase() sees the first one', async () => {
    const values = await scrape(mock);
    for (const plan of ['none', ...PLANS]) {
      expect(values.get(requests(200, '', plan))).toBe(0);
      expect(values.get(requests(429, 'rate_limited', plan))).toBe(0);
      expect(values.get(requests(404, 'pet_not_found', plan))).toBe(0);
    }
    for (const plan of PLANS) {
      expect(values.get(requests(429, 'key_banned', plan))).toBe(0);
      expect(values.get(`petstore_mock_bans_total{plan="${plan}"}`)).toBe(0);
      // What only a request without a valid key can get is shown for that case alone.
      expect(values.has(requests(401, 'missing_api_key', plan))).toBe(false);
    }
    expect(values.get(requests(401, 'missing_api_key', 'none'))).toBe(0);
    expect(values.get('petstore_mock_request_duration_seconds_count')).toBe(0);
    expect(values.get('petstore_mock_request_duration_seconds_bucket{le="+Inf"}')).toBe(0);
  });

  it.each([
    ['GET /v1/pets with a Free key', '/v1/pets', { authorization: 'Bearer demo-free' }, undefined, requests(200, '', 'free')],
    ['GET /v1/pets with an Enterprise key', '/v1/pets?limit=1', { authorization: 'Bearer demo-enterprise' }, undefined, requests(200, '', 'enterprise')],
    [
      'POST /v1/pets with a Business key',
      '/v1/pets',
      { authorization: 'Bearer demo-business', 'content-type': 'application/json' },
      '{"name":"Metric","categoryId":1}',
      requests(201, '', 'business'),
    ],
    ['GET /v1/pets/999999 with a Pro key', '/v1/pets/999999', { authorization: 'Bearer demo-pro' }, undefined, requests(404, 'pet_not_found', 'pro')],
    ['GET /v1/pets?limit=0 with a Pro key', '/v1/pets?limit=0', { authorization: 'Bearer demo-pro' }, undefined, requests(400, 'invalid_query', 'pro')],
    ['GET /v1/pets without a key', '/v1/pets', {}, undefined, requests(401, 'missing_api_key', 'none')],
    ['GET /v1/pets with an unknown key', '/v1/pets', { authorization: 'Bearer nope' }, undefined, requests(401, 'invalid_api_key', 'none')],
    [
      'a CORS preflight',
      '/v1/pets',
      { origin: 'https://app.test', 'access-control-request-method': 'GET', method: 'OPTIONS' },
      undefined,
      requests(204, '', 'none'),
    ],
  ])('%s counts 1 in %s, and nothing else', async (_what, path, headers: Record<string, string>, body, series) => {
    const before = await scrape(mock);
    const { method, ...sent } = headers;
    await fetch(`${mock.url.replace(/\/v1$/, '')}${path}`, { method: method ?? (body === undefined ? 'GET' : 'POST'), headers: sent, body });
    const after = await scrape(mock);
    expect((after.get(series) ?? 0) - (before.get(series) ?? 0)).toBe(1);
    for (const [name, value] of after) {
      if (name.startsWith('petstore_mock_requests_total') && name !== series) expect([name, value]).toEqual([name, before.get(name) ?? 0]);
    }
    expect((after.get('petstore_mock_request_duration_seconds_count') ?? 0) - (before.get('petstore_mock_request_duration_seconds_count') ?? 0)).toBe(1);
  });

  it('counts a ban once, when it starts, and its refusals by code and plan', async () => {
    let banned = 0;
    for (let i = 0; i < 50 && banned < 3; i++) {
      const res = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: 'Bearer tiny' } });
      if (((await res.json()) as { code?: string }).code === 'key_banned') banned++;
    }
    expect(banned).toBe(3);
    const values = await scrape(mock);
    expect(values.get('petstore_mock_bans_total{plan="pro"}')).toBe(1);
    expect(values.get(requests(429, 'key_banned', 'pro'))).toBeGreaterThanOrEqual(3);
    expect(values.get(requests(429, 'rate_limited', 'pro'))).toBeGreaterThanOrEqual(1);
    expect(values.get('petstore_mock_bans_total{plan="free"}')).toBe(0);
  });

  it('keeps the histogram whole: cumulative buckets, and a count that is every request counted', async () => {
    const values = await scrape(mock);
    const buckets = [...values].filter(([name]) => name.startsWith('petstore_mock_request_duration_seconds_bucket')).map(([, v]) => v);
    expect(buckets.length).toBeGreaterThan(10);
    expect([...buckets].sort((a, b) => a - b)).toEqual(buckets);
    const answered = [...values].filter(([name]) => name.startsWith('petstore_mock_requests_total')).reduce((sum, [, v]) => sum + v, 0);
    expect(values.get('petstore_mock_request_duration_seconds_count')).toBe(answered);
    expect(buckets.at(-1)).toBe(answered);
    expect(values.get('petstore_mock_request_duration_seconds_sum')).toBeGreaterThan(0);
  });

  it('shows the build without an instance or job label, the sessions of this process and the process series', async () => {
    await fetch(`${mock.url}/pets`, { headers: { authorization: 'Bearer demo-pro', 'x-mock-session': 'metrics-a' } });
    const text = await (await fetch(`${mock.origin}/__admin/metrics`)).text();
    expect(text).not.toMatch(/[{,](instance|job|exported_instance)="/);
    const values = samples(text);
    expect(values.get(`petstore_mock_build_info{version="${version}",node_version="${process.version}",state="memory"}`)).toBe(1);
    expect(values.get('petstore_mock_sessions')).toBe(2);
    expect(values.get('process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(values.get('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(values.get('process_open_fds')).toBeGreaterThan(0);
    expect(Math.abs((values.get('process_start_time_seconds') ?? 0) - (Date.now() / 1000 - process.uptime()))).toBeLessThan(1);
    expect(text).not.toMatch(/^petstore_mock_(state_up|state_errors_total|redis_roundtrip_seconds|deployment_sessions)\b/m);
  });

  it('health names the instance and counts uptime from the start of the process', async () => {
    const from = Math.floor(process.uptime());
    const health = (await (await fetch(`${mock.origin}/__admin/health`)).json()) as { instance: string; uptimeSeconds: number };
    const to = Math.floor(process.uptime());
    expect(health.instance).toBe(`${hostname()}:${process.pid}`);
    // The test process ran a while before this mock started: its uptime is not the mock's age.
    expect(health.uptimeSeconds).toBeGreaterThanOrEqual(from);
    expect(health.uptimeSeconds).toBeLessThanOrEqual(to);
  });
});

describe('promtool check metrics', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-metrics-'));
  const scenario = join(dir, 'forced.yaml');
  writeFileSync(scenario, 'description: a forced answer\nsteps:\n  - match: { operation: listPets }\n    times: 1\n    answer: { status: 502 }\n');
  const promtool = (text: string) => {
    const check = spawnSync('/usr/bin/promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    return { status: check.status, stdout: check.stdout, stderr: check.stderr };
  };

  it('accepts a scrape of a mock that answered every kind of request (Debian prometheus package)', async () => {
    expect(existsSync('/usr/bin/promtool'), 'the metrics test needs promtool from Debian prometheus').toBe(true);
    const mock = await startMock({ scenario });
    try {
      for (const headers of [{ authorization: 'Bearer demo-pro' }, {}, { authorization: 'Bearer demo-free' }] as Record<string, string>[])
        for (const path of ['/pets', '/pets/1', '/pets?limit=x']) await fetch(`${mock.url}${path}`, { headers });
      const text = await (await fetch(`${mock.origin}/__admin/metrics`)).text();
      expect(text).toMatch(/^petstore_mock_requests_total\{status="502",code="bad_gateway",plan="pro"\} 1$/m);
      expect(promtool(text)).toEqual({ status: 0, stdout: '', stderr: '' });
    } finally {
      await mock.close();
    }
  });

  it.each([
    ['the replica that reports the deployment', true],
    ['another replica', false],
  ])('accepts the series made on the fly for a pair of status and code made nowhere ahead, and the Redis series of %s', (_, reportsDeployment) => {
    const metrics = new Metrics();
    metrics.answered(418, 'teapot', 'pro', 0.001, false);
    metrics.answered(418, 'teapot', 'pro', 0.002, false);
    metrics.roundTrip(0.003);
    metrics.failure('timeout');
    const text = metrics.render({ engine: 'redis', sessions: 3, reportsDeployment });
    // The deployment's gauge: its family on every replica, its sample on one.
    expect(text).toContain('# TYPE petstore_mock_deployment_sessions gauge');
    expect(/^petstore_mock_deployment_sessions 3$/m.test(text)).toBe(reportsDeployment);
    expect(text).toMatch(/^petstore_mock_requests_total\{status="418",code="teapot",plan="pro"\} 2$/m);
    expect(text).toMatch(/^petstore_mock_state_errors_total\{kind="timeout"\} 1$/m);
    expect(text).not.toMatch(/^petstore_mock_requests_total\{status="418",code="teapot",plan="free"\}/m);
    expect(promtool(text)).toEqual({ status: 0, stdout: '', stderr: '' });
  });
});
