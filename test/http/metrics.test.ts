// GET /__admin/metrics on the in-memory mock: Prometheus text with answers by status, sessions,
// the instance and its uptime (no Redis series); /__admin/health names the instance and counts
// uptime from the start of the process.
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';

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

describe('GET /__admin/metrics (in memory)', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(async () => {
    await mock.close();
  });

  it('counts answers by status and sessions, in the Prometheus text format, with no Redis series', async () => {
    const auth = { authorization: 'Bearer demo-pro' };
    await fetch(`${mock.url}/pets`, { headers: auth });
    await fetch(`${mock.url}/pets`, { headers: auth });
    await fetch(`${mock.url}/pets/999999`, { headers: auth });
    await fetch(`${mock.url}/pets`);
    await fetch(`${mock.url}/pets`, { headers: { ...auth, 'x-mock-session': 'metrics-a' } });
    const from = Math.floor(process.uptime());
    const res = await fetch(`${mock.origin}/__admin/metrics`);
    const to = Math.floor(process.uptime());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE petstore_mock_requests_total counter');
    const values = samples(text);
    expect(values.get('petstore_mock_requests_total{status="200"}')).toBe(3);
    expect(values.get('petstore_mock_requests_total{status="404"}')).toBe(1);
    expect(values.get('petstore_mock_requests_total{status="401"}')).toBe(1);
    expect(values.get('petstore_mock_sessions')).toBe(2);
    expect(values.get(`petstore_mock_info{instance="${hostname()}:${process.pid}",state="memory"}`)).toBe(1);
    expect(values.get('petstore_mock_uptime_seconds')).toBeGreaterThanOrEqual(from);
    expect(values.get('petstore_mock_uptime_seconds')).toBeLessThanOrEqual(to);
    expect(text).not.toContain('redis');
    expect(text).not.toContain('state_errors');
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
