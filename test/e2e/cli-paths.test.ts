import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { OPTIONS } from '../../src/cli/options.js';
import { cliLauncher, waitFor } from './cli.js';

// The built CLI parses plain command lines itself and hands the rest to yargs, loaded only then;
// Ajv is loaded on the first body. These run the real dist/cli.js through both paths.
const cli = cliLauncher();

describe('the command line beyond the fast path', () => {
  it.each([['--help'], ['-h']])('%s lists the options, numbers as [number], and exits 0', async (flag) => {
    const r = cli(flag);
    expect(await r.exited).toBe(0);
    for (const option of OPTIONS) expect(r.stdout()).toContain(`--${option.flag}`);
    expect(r.stdout()).toMatch(/--port .*\[number\] \[default: 4010\]/);
    expect(r.stderr()).toBe('');
  });

  it('--version prints the version of package.json', async () => {
    const r = cli('--version');
    expect(await r.exited).toBe(0);
    expect(r.stdout().trim()).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
  });

  it('scenarios lists the shipped scenarios', async () => {
    const r = cli('scenarios');
    expect(await r.exited).toBe(0);
    expect(r.stdout()).toMatch(/^default\s+/m);
  });

  it('a repeated flag goes through yargs and still starts the server', async () => {
    const r = cli('--key', 'a-key:pro', 'b-key:business', '--port', '0', '--quiet');
    const [, url] = await waitFor(r, /(http:\/\/127\.0\.0\.1:\d+\/v1)/);
    const res = await fetch(`${url}/pets?limit=1`, { headers: { authorization: 'Bearer b-key' } });
    expect(res.status).toBe(200);
    // Business: 1,000 a minute is the tighter window.
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
  });
});

describe('bodies from the built CLI', () => {
  it('validates a POST with the lazily loaded validator', async () => {
    const r = cli('--port', '0', '--quiet');
    const [, url] = await waitFor(r, /(http:\/\/127\.0\.0\.1:\d+\/v1)/);
    const headers = { authorization: 'Bearer demo-pro', 'content-type': 'application/json' };
    const bad = await fetch(`${url}/pets`, { method: 'POST', headers, body: '{"name":1}' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('invalid_body');
    const good = await fetch(`${url}/pets`, { method: 'POST', headers, body: '{"name":"Rex","categoryId":3}' });
    expect(good.status).toBe(201);
    expect(await good.json()).toEqual({ id: 51, name: 'Rex', categoryId: 3 });
  });
});
