import { describe, expect, it } from 'vitest';
import { cliLauncher, waitFor } from './cli.js';
import { at } from '../support/checked.js';

const cli = cliLauncher('--port', '0');

const SECRET = 'ci-secret-key-123456';

/** Sends the requests every log test reads back: a success, a 401, a 404 and one in a session. */
async function traffic(url: string): Promise<void> {
  const send = (path: string, headers: Record<string, string>) => fetch(`${url}${path}`, { headers }).then((r) => r.text());
  await send('/pets?limit=2', { authorization: `Bearer ${SECRET}` });
  await send('/pets', {});
  await send('/pets/999999', { authorization: `Bearer ${SECRET}` });
  await send('/pets?limit=1', { authorization: 'Bearer demo-pro', 'x-mock-session': 'worker-7' });
}

describe('machine-readable start and logs', () => {
  it('--ready-json prints one JSON line with the URL, keys and scenario, and the URL serves', async () => {
    const r = cli('--ready-json', '--key', `${SECRET}:enterprise:100000:1000000`);
    await waitFor(r, /\n/);
    const lines = r.stdout().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const ready = JSON.parse(at(lines, 0)) as Record<string, unknown>;
    expect(ready).toMatchObject({ event: 'ready', scenario: 'default', pid: r.child.pid });
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(ready.url).toBe(`${ready.origin}/v1`);
    expect(ready.admin).toBe(`${ready.origin}/__admin/`);
    expect(ready.port).toBe(Number(new URL(String(ready.url)).port));
    expect(ready.keys).toEqual([
      { key: 'demo-free', plan: 'free', perMinute: 60, perDay: 1000, limits: ['60/m', '1000/d'] },
      { key: 'demo-pro', plan: 'pro', perMinute: 300, perDay: 10000, limits: ['300/m', '10000/d'] },
      { key: 'demo-business', plan: 'business', perMinute: 1000, perDay: 100000, limits: ['1000/m', '100000/d'] },
      { key: 'demo-enterprise', plan: 'enterprise', perMinute: 5000, perDay: 1000000, limits: ['5000/m', '1000000/d'] },
      { key: SECRET, plan: 'enterprise', perMinute: 100000, perDay: 1000000, limits: ['100000/m', '1000000/d'] },
    ]);
    const res = await fetch(`${ready.url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } });
    expect(res.status).toBe(200);
  });

  it('marks the keys a scenario revoked, in the ready line and the banner', async () => {
    const json = cli('--ready-json', '--scenario', 'revoked-key');
    await waitFor(json, /\n/);
    const ready = JSON.parse(json.stdout()) as { keys: { key: string; revoked?: boolean }[]; scenario: string };
    expect(ready.scenario).toBe('revoked-key');
    expect(ready.keys.filter((k) => k.revoked).map((k) => k.key)).toEqual(['demo-free']);
    const banner = cli('--scenario', 'revoked-key');
    await waitFor(banner, /scenario\s+revoked-key/);
    expect(banner.stdout()).toContain('demo-free (free, 60/min, 1000/day, revoked)');
    expect(banner.stdout()).toContain('demo-pro (pro, 300/min, 10000/day)\n');
  });

  it('--log-format json prints one JSON line per request with method, path, status, time, session and reason; keys redacted', async () => {
    const r = cli('--ready-json', '--log-format', 'json', '--key', `${SECRET}:pro`);
    const [line] = await waitFor(r, /^\{.*\}\n/);
    const { url } = JSON.parse(line) as { url: string };
    await traffic(url);
    await waitFor(r, /worker-7/);
    const logs = r
      .stdout()
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logs).toHaveLength(4);
    for (const entry of logs) {
      expect(entry).toMatchObject({ level: 'info', msg: 'request', method: 'GET' });
      expect(entry.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(typeof entry.durationMs).toBe('number');
      expect(typeof entry.reason).toBe('string');
    }
    expect(logs.map((e) => [e.path, e.query, e.status, e.session, e.key, e.code])).toEqual([
      ['/v1/pets', 'limit=2', 200, 'default', 'ci-s…456', undefined],
      ['/v1/pets', '', 401, 'default', undefined, 'missing_api_key'],
      ['/v1/pets/999999', '', 404, 'default', 'ci-s…456', 'pet_not_found'],
      ['/v1/pets', 'limit=1', 200, 'worker-7', 'de…o', undefined],
    ]);
    expect(at(logs, 1).reason).toContain('No API key was sent');
    expect(r.stdout().split('\n').slice(1).join('\n')).not.toContain(SECRET);
  });

  it('--log-format json alone: stdout is JSON lines only, from the ready event through the requests to the stop', async () => {
    const r = cli('--log-format', 'json', '--lame-duck-time', '0', '--key', `${SECRET}:pro`);
    const [line] = await waitFor(r, /^\{.*\}\n/);
    const { url, health } = JSON.parse(line) as { url: string; health: string };
    expect((await fetch(health)).status).toBe(200);
    await traffic(url);
    await waitFor(r, /worker-7/);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    // What `docker logs … | jq` does: every line of stdout parsed on its own.
    const events = r
      .stdout()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => e.msg)).toEqual(['ready', 'request', 'request', 'request', 'request', 'stopping', 'stopped']);
    expect(at(events, 0)).toMatchObject({
      level: 'info',
      event: 'ready',
      url,
      health: `${url.slice(0, -3)}/__admin/health`,
      scenario: 'default',
      pid: r.child.pid,
    });
    expect(at(events, 5)).toMatchObject({ event: 'stopping', cause: 'SIGTERM', lameDuckSeconds: 0, drainSeconds: 5 });
    expect(at(events, 6)).toMatchObject({ event: 'stopped', exitCode: 0 });
    expect(r.stdout()).not.toContain(SECRET);
  });

  it('--log-format pretty (the default) prints one readable line per request, keys redacted', async () => {
    const r = cli('--key', `${SECRET}:pro`);
    const url = at(await waitFor(r, /listening on (\S+)/), 1);
    await waitFor(r, /try\s+curl.*\n/);
    const banner = r.stdout();
    await traffic(url);
    await waitFor(r, /worker-7/);
    const lines = r.stdout().slice(banner.length).trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    const stamp = '\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z';
    expect(lines[0]).toMatch(new RegExp(`^${stamp} GET /v1/pets\\?limit=2 -> 200 key=ci-s…456 session=default [\\d.]+ms$`));
    expect(lines[1]).toMatch(new RegExp(`^${stamp} GET /v1/pets -> 401 session=default [\\d.]+ms \\(missing_api_key: No API key was sent\\.`));
    expect(lines[2]).toMatch(/ GET \/v1\/pets\/999999 -> 404 key=ci-s…456 session=default [\d.]+ms \(pet_not_found: /);
    expect(lines[3]).toMatch(/ GET \/v1\/pets\?limit=1 -> 200 key=de…o session=worker-7 [\d.]+ms$/);
    expect(r.stdout().slice(banner.length)).not.toContain(SECRET);
  });

  it.each([
    [['--quiet'], /^petstore-mock \S+ listening on http:\/\/127\.0\.0\.1:\d+\/v1\n$/],
    [['--quiet', '--ready-json'], /^\{"event":"ready".*\}\n$/],
  ])('%j prints only the ready line, no banner and no request log', async (flags, only) => {
    const r = cli(...flags);
    const url = at(await waitFor(r, /(http:\/\/127\.0\.0\.1:\d+\/v1)/), 1);
    await traffic(url);
    // The server has answered every request, and an answer is logged in the same turn it is sent.
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.stdout()).toMatch(only);
    expect(r.stderr()).toBe('');
  });
});
