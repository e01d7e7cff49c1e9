// `petstore-mock verify` as a person or a CI job runs it: the built CLI against a mock in this
// process, exit codes 0, 1 and 2, the three reporters, the real wait of --rate-limits, and the key
// never printed.
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { faultProxy } from '../support/fault-proxy.js';
import { freePort } from '../support/ports.js';
import { cliLauncher } from './cli.js';

const SECRET = 'verify-secret-key-0123456789';
const cli = cliLauncher('verify');
let mock: RunningMock;
let unfreezeOnRefusal = false;
beforeAll(async () => {
  mock = await startMock({
    port: 0,
    keys: ['k20:pro:20:1000', `${SECRET}:pro`],
    // The --rate-limits run waits in real time: its clock starts moving at the first 429.
    onRequest: (entry) => {
      if (unfreezeOnRefusal && entry.status === 429) mock.clock.unfreeze();
    },
  });
});
afterAll(async () => {
  await mock?.close();
});
const proxies: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const p of proxies.splice(0)) await p.close();
  mock.reset();
  unfreezeOnRefusal = false;
});

async function finished(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = cli(...args);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describe('petstore-mock verify', () => {
  it('exits 0 when every rule holds and prints each rule', async () => {
    const { code, stdout, stderr } = await finished([mock.url, '--key', 'demo-pro']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^petstore-mock verify http:\/\/127\.0\.0\.1:\d+\/v1\n/);
    expect(stdout).toMatch(/^ {2}pass {2}auth\.required /m);
    expect(stdout).toMatch(/^ {2}skip {2}deprecation\.removal /m);
    expect(stdout).toMatch(/\n13 passed, 0 failed, 3 skipped; \d+ requests sent\n$/);
  });

  it('exits 1 when a rule fails; --reporter json prints the one object', async () => {
    const proxy = await faultProxy(mock.origin, { answer: (a) => void (a.status === 404 && delete a.headers['x-ratelimit-limit']) });
    proxies.push(proxy);
    const { code, stdout } = await finished([proxy.url, '--key', 'demo-pro', '--reporter', 'json', '--read-only']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(Object.keys(report)).toEqual(['base', 'passed', 'failed', 'skipped', 'rules']);
    expect(report).toMatchObject({ base: proxy.url, passed: 10, failed: 1, skipped: 5 });
    const failed = report.rules.filter((r: { ok: boolean; skipped: boolean }) => !r.ok && !r.skipped);
    expect(failed.map((r: { id: string }) => r.id)).toEqual(['ratelimit.headers']);
    expect(failed[0].evidence[0].response.status).toBe(404);
  });

  it('--reporter junit prints JUnit XML', async () => {
    const { code, stdout } = await finished([mock.url, '--key', 'demo-pro', '--reporter', 'junit']);
    expect(code).toBe(0);
    expect(XMLValidator.validate(stdout)).toBe(true);
    expect(stdout).toMatch(/<testsuites name="petstore-mock verify" tests="16" failures="0" errors="0" skipped="3" time="\d+\.\d{3}">/);
    expect(stdout.match(/<testcase /g)).toHaveLength(16);
  });

  it('exits 2 when the address does not answer, and says so in the pretty report', async () => {
    const port = await freePort();
    const { code, stdout, stderr } = await finished([`http://127.0.0.1:${port}/v1`, '--key', 'demo-pro']);
    expect(code).toBe(2);
    expect(stderr).toBe('');
    expect(stdout).toMatch(
      new RegExp(
        `^petstore-mock verify http://127\\.0\\.0\\.1:${port}/v1\\n\\npetstore-mock: could not run: http://127\\.0\\.0\\.1:${port}/v1 is unreachable \\(.*ECONNREFUSED.*\\); check the URL and that the service is up\\.\\n$`,
      ),
    );
  });

  it.each(['json', 'junit'])('exits 2 when the key is refused: --reporter %s still writes its report, and stderr says why', async (reporter) => {
    const { code, stdout, stderr } = await finished([mock.url, '--key', 'no-such-key-at-all', '--reporter', reporter]);
    expect(code).toBe(2);
    const reason = `could not run: ${mock.url} refused the key (GET /v1/pets?limit=100 answered 401 invalid_api_key); check --key.`;
    expect(stderr).toBe(`petstore-mock: ${reason}\n`);
    if (reporter === 'json') expect(JSON.parse(stdout)).toEqual({ base: mock.url, passed: 0, failed: 0, skipped: 0, rules: [], error: reason });
    else {
      expect(XMLValidator.validate(stdout)).toBe(true);
      expect(stdout).toContain('errors="1"');
      expect(stdout).toContain('<error message="could not run: ');
    }
  });

  it('--rate-limits waits Retry-After in real time and never retries early', async () => {
    // One second before a minute ends, frozen until the quota runs out: the 429 says Retry-After: 1.
    mock.clock.freeze();
    mock.clock.set(Date.UTC(2026, 2, 10, 12, 0, 59));
    unfreezeOnRefusal = true;
    const started = Date.now();
    const { code, stdout } = await finished([mock.url, '--key', 'k20', '--rate-limits', '--reporter', 'json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.failed).toBe(0);
    expect(report.rules.find((r: { id: string }) => r.id === 'ratelimit.no-ban').message).toBe(
      'waited the 1 s Retry-After asked for; the next request answered 200',
    );
    const journal = mock.requests();
    const refusal = journal.findIndex((e) => e.status === 429);
    const next = journal[refusal + 1];
    expect(journal[refusal]?.at).toBe('2026-03-10T12:00:59.000Z');
    // The clock ran from the refusal: the retry came a second or more later, in the next window.
    expect(next && Date.parse(next.at)).toBeGreaterThanOrEqual(Date.parse('2026-03-10T12:01:00.000Z'));
    expect(next?.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('never prints the key, even when the service echoes it back', async () => {
    const echo = (text: string): string => `the key ${text} is broken`;
    const proxy = await faultProxy(mock.origin, {
      answer: (a, r) => {
        // Error answers to the key repeat it, and give a wrong status so that error.shape shows them.
        if (a.status >= 400 && r.headers.authorization === `Bearer ${SECRET}`) a.json = { code: 'echo', message: echo(r.headers.authorization), status: 499 };
        a.headers['x-echo'] = r.headers.authorization ?? '';
      },
    });
    proxies.push(proxy);
    for (const reporter of ['pretty', 'json', 'junit']) {
      const { code, stdout, stderr } = await finished([proxy.url, '--key', SECRET, '--reporter', reporter]);
      expect(code).toBe(1);
      expect(stdout).toContain(reporter === 'junit' ? 'Bearer &lt;key&gt;' : 'Bearer <key>');
      expect(stdout + stderr).not.toContain(SECRET);
      expect(stdout + stderr).not.toContain('0123456789');
    }
    const refused = await finished([mock.url, '--key', `${SECRET}x`]);
    expect(refused.code).toBe(2);
    expect(refused.stdout + refused.stderr).not.toContain(SECRET);
  });

  it('refuses a command line it cannot use with one line and exit 1', async () => {
    const cases: [string[], RegExp][] = [
      [[mock.url], /^petstore-mock: verify needs --key KEY: the API key to send \(it is never printed\)\.\n$/],
      [[mock.url, '--key', 'demo-pro', '--max-requests', '0'], /^petstore-mock: --max-requests must be a whole number from 1 to 100000, not "0"\.\n$/],
      [[mock.url, '--key', 'demo-pro', '--reporter', 'tap'], /^petstore-mock: .*tap.*; petstore-mock --help lists the options\.\n$/],
      [
        ['--key', 'demo-pro'],
        /^petstore-mock: verify needs the base URL of the API to check: petstore-mock verify https:\/\/staging\.example\.com\/v1 --key KEY\.\n$/,
      ],
      [[mock.url, mock.url, '--key', 'demo-pro'], /^petstore-mock: unknown command http:.*; petstore-mock --help lists the options\.\n$/],
      [
        ['staging.example.com', '--key', 'demo-pro'],
        /^petstore-mock: verify needs the API's base URL, such as https:\/\/staging\.example\.com\/v1, not "staging\.example\.com"\.\n$/,
      ],
    ];
    for (const [args, expected] of cases) {
      const { code, stdout, stderr } = await finished(args);
      expect({ args, code, stdout, stderr: stderr.replace(expected, 'as expected') }).toEqual({ args, code: 1, stdout: '', stderr: 'as expected' });
    }
  });
});
