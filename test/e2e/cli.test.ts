import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shippedScenarios } from '../../src/files/scenario-files.js';
import { cliLauncher, waitFor } from './cli.js';
import { at } from '../support/checked.js';

const cli = cliLauncher();

describe('the petstore-mock command', () => {
  it('prints the base URL, the demo keys and a curl line, serves the API, and stops on SIGTERM', async () => {
    const r = cli('--port', '0');
    const [, url] = await waitFor(r, /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/);
    await waitFor(r, /try\s+curl/);
    for (const key of ['demo-free', 'demo-pro', 'demo-business', 'demo-enterprise']) expect(r.stdout()).toContain(key);
    expect(r.stdout()).toContain(`curl -H "Authorization: Bearer demo-free" "${url}/pets?limit=5"`);
    const res = await fetch(`${url}/pets?limit=2`, { headers: { authorization: 'Bearer demo-free' } });
    expect(res.status).toBe(200);
    expect((await res.json()) as unknown[]).toHaveLength(2);
    await waitFor(r, /GET \/v1\/pets\?limit=2 -> 200 key=demo…ree/);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });

  it('honours --seed, --pets and --key', async () => {
    const r = cli('--port', '0', '--seed', '9', '--pets', '3', '--key', 'ci-key:enterprise:100000:1000000', '--quiet');
    const [, url] = await waitFor(r, /(http:\/\/127\.0\.0\.1:\d+\/v1)/);
    const res = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer ci-key' } });
    expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
    expect(((await res.json()) as { id: number }[]).map((p) => p.id)).toEqual([1, 2, 3]);
    expect(r.stdout()).not.toContain('GET /v1/pets');
  });

  it.each([
    [['--port', 'abc'], '--port must be a whole number from 0 to 65535'],
    [['--nope'], 'unknown option --nope; petstore-mock --help lists the options.'],
    [['--prot', '0'], 'unknown option --prot (did you mean --port?); petstore-mock --help lists the options.'],
    [['--log-format', 'xml'], '--log-format takes pretty or json, not "xml".'],
    [['--port'], '--port needs a value; petstore-mock --help lists the options.'],
    [
      ['--watch', '--state', 'redis://127.0.0.1:6379/0'],
      '--watch reloads files into the sessions of this process, and with --state the sessions live in Redis; drop one of them.',
    ],
    [['--host', '127.0.0.1', '--host', '127.0.0.1'], '--host was given 2 times; give it once.'],
    [['--port', '0', '--port', '1'], '--port was given 2 times; give it once.'],
    [['--admin-token', 'a', '--admin-token', 'b'], '--admin-token was given 2 times; give it once.'],
    [['--fixtures', 'a.json', '--fixtures', 'b.json'], '--fixtures was given 2 times; give it once.'],
    [['--scenario', 'ban', '--scenario', 'banned'], '--scenario was given 2 times; give it once.'],
    [['--key', 'x:gold'], 'names an unknown plan "gold"'],
    [['--fixtures', 'missing.json'], 'cannot read the fixtures file missing.json'],
  ])('%j: one line on stderr, exit 1', async (args, fragment) => {
    const r = cli(...args);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toContain(fragment);
    expect(r.stderr().trim().split('\n')).toHaveLength(1);
    expect(r.stderr()).toMatch(/^petstore-mock: /);
  });

  const usage =
    'write --key KEY:PLAN, KEY:PLAN:10/s,600/m,100000/d (windows of s, m, h or d) or KEY:PLAN:PER_MINUTE:PER_DAY, PLAN one of free, pro, business, enterprise.';
  it.each([
    [
      ['--scenario', 'nope'],
      `petstore-mock: unknown scenario "nope"; use one of ${shippedScenarios()
        .map((s) => s.name)
        .join(', ')}, or a path to a .yaml or .json scenario file (petstore-mock scenarios lists them).`,
    ],
    [
      ['--scenario', 'bann'],
      `petstore-mock: unknown scenario "bann" (did you mean ban?); use one of ${shippedScenarios()
        .map((s) => s.name)
        .join(', ')}, or a path to a .yaml or .json scenario file (petstore-mock scenarios lists them).`,
    ],
    [['--key', 'x:gold'], `petstore-mock: --key "x:gold" names an unknown plan "gold"; ${usage}`],
    [['--key', 'ci-key'], `petstore-mock: --key "ci-key" is not valid; ${usage}`],
    [['--key', 'ci-key:pro:0:10'], 'petstore-mock: --key "ci-key:pro:0:10" needs whole numbers of at least 1 for PER_MINUTE and PER_DAY.'],
    [['--key', 'ci-key:pro:10/w'], `petstore-mock: --key "ci-key:pro:10/w" is not valid: "10/w" has the unit "w"; the units are s, m, h and d; ${usage}`],
    [
      ['--key', 'ci-key:pro:10/s,20/s'],
      `petstore-mock: --key "ci-key:pro:10/s,20/s" is not valid: the unit "s" is given twice; give each window once; ${usage}`,
    ],
    [['--fixtures', 'missing.json'], 'petstore-mock: cannot read the fixtures file missing.json (no such file); check the path given to --fixtures.'],
    [['--fixtures', 'test'], 'petstore-mock: cannot read the fixtures file test (it is a directory); check the path given to --fixtures.'],
    [['--fixtures', 'README.md'], 'petstore-mock: README.md is not valid JSON (unexpected character "#" at character 1); fix the file or drop --fixtures.'],
    [['--allow-host', 'evil/x'], 'petstore-mock: --allow-host "evil/x" is not a host name; give a name or address such as mock.test or 192.168.1.5.'],
  ])('%j prints exactly one actionable line and exits 1', async (args, line) => {
    const r = cli('--port', '0', ...args);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toBe(`${line}\n`);
    expect(r.stdout()).toBe('');
  });

  it('reports a port in use', async () => {
    const first = cli('--port', '0', '--quiet');
    const port = at(await waitFor(first, /127\.0\.0\.1:(\d+)\/v1/), 1);
    const second = cli('--port', port);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toBe(
      `petstore-mock: port ${port} on 127.0.0.1 is already in use; stop the other server or pass --port 0 (port: 0 to startMock) to take a free port.\n`,
    );
  });
});

describe('scenarios on the command line', () => {
  it('petstore-mock scenarios lists each shipped scenario on one line', async () => {
    const r = cli('scenarios');
    expect(await r.exited).toBe(0);
    const lines = r.stdout().trim().split('\n');
    expect(lines[0]).toMatch(/^default\s+The specification's behaviour with the real clock\.$/);
    for (const name of ['empty-store', 'rate-limit-minute', 'rate-limit-day', 'ban', 'banned', 'revoked-key', 'removal-eve', 'removed', 'slow', 'flaky']) {
      expect(lines.filter((l) => l.startsWith(`${name} `))).toHaveLength(1);
    }
  });

  it('--scenario NAME starts in it and says so', async () => {
    const r = cli('--port', '0', '--scenario', 'revoked-key');
    const [, url] = await waitFor(r, /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/);
    await waitFor(r, /scenario\s+revoked-key/);
    const res = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer demo-free' } });
    expect(((await res.json()) as { code: string }).code).toBe('revoked_api_key');
  });

  it('--scenario FILE with a mistake: the file, the line and what is wrong, and nothing listens', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-cli-'));
    const file = join(folder, 'typo.yaml');
    writeFileSync(file, 'description: a typo\nban:\n  afer: 3\n');
    const r = cli('--port', '0', '--scenario', file);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toBe(`petstore-mock: ${file}:3:3: unknown key "afer" in ban; the keys there are after, duration; fix the file and try again.\n`);
    expect(r.stdout()).toBe('');
  });

  it('--allow-host adds a name the admin API answers to; other names are refused', async () => {
    const r = cli('--port', '0', '--ready-json', '--allow-host', 'mock.test');
    const ready = JSON.parse((await waitFor(r, /^\{.*\}$/m))[0]) as { port: number };
    const { request } = await import('node:http');
    const statusFor = (host: string): Promise<number | undefined> =>
      new Promise((resolve, reject) => {
        request({ host: '127.0.0.1', port: ready.port, path: '/__admin/clock', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        })
          .on('error', reject)
          .end();
      });
    expect(await statusFor(`mock.test:${ready.port}`)).toBe(200);
    expect(await statusFor(`localhost:${ready.port}`)).toBe(200);
    expect(await statusFor(`other.test:${ready.port}`)).toBe(403);
  });
});
