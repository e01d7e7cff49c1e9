// `petstore-mock audit ORIGIN` as a CI job runs it: the built CLI against one mock in this process,
// every reporter on every exit (0 no error finding, 1 an error finding, 2 could not run), each
// well formed, and neither the key nor the admin token ever printed.
import { createRequire } from 'node:module';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, AuditCouldNotRun, startMock, type AuditReport, type RunningMock } from '../../src/index.js';
import { run } from './cli.js';

const SECRET = 'audit-secret-key-0123456789';
const TOKEN = 'admin-secret-token-9876543210';
const T59 = Date.UTC(2026, 2, 10, 12, 0, 59);
let mock: RunningMock;

async function send(session: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${SECRET}`, 'x-mock-session': session } });
    await res.arrayBuffer();
  }
}

beforeAll(async () => {
  mock = await startMock({ port: 0, keys: [`${SECRET}:free:1:1000`], adminToken: TOKEN });
  for (const id of ['clean', 'early']) {
    mock.session(id).clock.freeze();
    mock.session(id).clock.set(T59);
  }
  await send('clean', 1);
  await send('early', 3);
});
afterAll(() => mock?.close());

type Exit = 0 | 1 | 2;
/** The arguments of each exit: a clean session, one with early retries, and a call without the admin token. */
const ARGS: Record<Exit, () => string[]> = {
  0: () => [mock.origin, '--session', 'clean', '--key', SECRET, '--admin-token', TOKEN],
  1: () => [`${mock.url}`, '--session', 'early', '--key', SECRET, '--admin-token', TOKEN],
  2: () => [mock.origin, '--session', 'early', '--key', SECRET],
};

async function finished(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // Each run ends by itself (the command exits): concurrent tests must not kill each other's.
  const cli = run(process.execPath, ['dist/cli.js', 'audit', ...args]);
  const code = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

async function served(session: string): Promise<AuditReport> {
  const res = await fetch(`${mock.origin}/__admin/audit?session=${session}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return (await res.json()) as AuditReport;
}

const CHECKS: Record<string, (out: string, exit: Exit) => Promise<void> | void> = {
  pretty: (out, exit) => {
    expect(out).toMatch(/^petstore-mock audit http:\/\/127\.0\.0\.1:\d+/);
    if (exit === 0) expect(out).toContain('  no finding\n');
    if (exit === 1) expect(out).toMatch(/ERROR {2}early-retry, key audi…789: /);
    if (exit === 2) expect(out).toMatch(/answered 401: .*--admin-token/);
  },
  json: async (out, exit) => {
    const parsed = JSON.parse(out) as unknown;
    if (exit === 2) expect(parsed).toEqual({ error: expect.stringMatching(/^petstore-mock: .*answered 401/) });
    else expect(parsed).toEqual(await served(exit === 0 ? 'clean' : 'early'));
  },
  junit: (out, exit) => {
    expect(XMLValidator.validate(out)).toBe(true);
    const suites = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(out).testsuites;
    expect(suites.failures).toBe(exit === 1 ? '1' : '0');
    expect(suites.errors).toBe(exit === 2 ? '1' : '0');
    if (exit === 2) expect(suites.testsuite.testcase.error.type).toBe('could-not-run');
    else expect(suites.testsuite.testcase).toHaveLength(9);
  },
  sarif: async (out, exit) => {
    const log = JSON.parse(out);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.runs).toHaveLength(1);
    const [run] = log.runs;
    const ids = run.tool.driver.rules.map((r: { id: string }) => r.id);
    expect(ids).toHaveLength(9);
    for (const result of run.results) {
      expect(ids[result.ruleIndex]).toBe(result.ruleId);
      expect(['error', 'warning']).toContain(result.level);
      expect(typeof result.message.text).toBe('string');
    }
    expect(run.invocations[0].executionSuccessful).toBe(exit !== 2);
    if (exit === 2) {
      expect(run.results).toEqual([]);
      expect(run.invocations[0].toolExecutionNotifications[0]).toMatchObject({ level: 'error', message: { text: expect.stringMatching(/answered 401/) } });
    } else expect(run.results.map((r: { ruleId: string }) => r.ruleId)).toEqual((await served(exit === 0 ? 'clean' : 'early')).findings.map((f) => f.rule));
  },
  github: (out, exit) => {
    const lines = out.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^::(error|warning|notice) title=[^:\n]+::[^\n]+$/);
    if (exit === 0) expect(lines).toEqual([expect.stringMatching(/^::notice title=petstore-mock audit::no finding in 1 requests/)]);
    if (exit === 1) expect(lines[0]).toMatch(/^::error title=petstore-mock audit%3A early-retry%2C key audi…789::1 request with key audi…789 \(#3\)/);
    if (exit === 2) expect(lines).toEqual([expect.stringMatching(/^::error title=petstore-mock audit could not run::petstore-mock: .*answered 401/)]);
  },
};

const cases = Object.keys(CHECKS).flatMap((reporter) => ([0, 1, 2] as const).map((exit) => ({ reporter, exit })));

describe.concurrent('petstore-mock audit', () => {
  it.each(cases)('--reporter $reporter exits $exit, well formed, the key and token never printed', async ({ reporter, exit }) => {
    const { code, stdout, stderr } = await finished([...ARGS[exit](), '--reporter', reporter]);
    expect(code, stderr).toBe(exit);
    await CHECKS[reporter]!(stdout, exit);
    for (const secret of [SECRET, TOKEN]) expect(stdout + stderr).not.toContain(secret);
    if (exit === 2 && reporter !== 'pretty') expect(stderr).toMatch(/^petstore-mock: .*answered 401/);
  });

  it('exits 2 when the mock cannot be reached, and when the audit judged nothing', async () => {
    const closed = await finished(['http://127.0.0.1:9', '--reporter', 'json', '--key', SECRET]);
    expect(closed.code).toBe(2);
    expect(JSON.parse(closed.stdout)).toEqual({ error: expect.stringMatching(/^petstore-mock: could not reach http:\/\/127\.0\.0\.1:9\/__admin\/audit/) });
    const nothing = await finished([mock.origin, '--session', 'nobody', '--admin-token', TOKEN]);
    expect(nothing.code).toBe(2);
    expect(nothing.stdout).toMatch(/judged no requests in session "nobody", so it proves nothing/);
  });

  it('audit(origin, options) from the library returns the object of GET /__admin/audit, and rejects when it cannot run', async () => {
    expect(await audit(`${mock.origin}/`, { session: 'early', key: SECRET, adminToken: TOKEN })).toEqual(await served('early'));
    const refused = audit(mock.origin, { session: 'early', key: SECRET });
    await expect(refused).rejects.toBeInstanceOf(AuditCouldNotRun);
    await expect(refused).rejects.not.toThrow(SECRET);
  });

  it('audit is required from CommonJS too', async () => {
    const cjs = createRequire(import.meta.url)('../../dist/cjs/index.js') as typeof import('../../src/index.js');
    expect(await cjs.audit(mock.origin, { session: 'early', adminToken: TOKEN })).toEqual(await served('early'));
  });
});
