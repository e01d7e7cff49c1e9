// Real retrying clients, configured well and badly, one call at a time and four at once, judged
// by the client audit. Each case has its own session, whose clock stands still a second before a
// minute's end until the first 429: that 429 says Retry-After: 1 and X-RateLimit-Reset at
// the minute's end, so a client that honours it sleeps about a second, and one that ignores it
// retries within the same minute, however slow the machine was before. docs/audit.md publishes
// the table these cases make: `UPDATE_AUDIT_TABLE=1` writes it, otherwise it is checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { AUDIT_RULES, type AuditReport, type AuditRule } from '../../src/core/audit/audit.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROGRAMS, PYTHON, available, buildGo, buildJava, run } from './tools.js';

/** One call at a time: 1 a minute, used before the client starts. Four at once: 4 a minute, 3 used. */
const ONE = 'seq-key-0001';
const FOUR = 'par-key-0001';
const T59 = Date.UTC(2026, 2, 10, 12, 0, 59);

let mock: RunningMock;
let go: Awaited<ReturnType<typeof buildGo>> | undefined;
let java: Awaited<ReturnType<typeof buildJava>> | undefined;
const CI = process.env.CI === 'true';

beforeAll(async () => {
  mock = await startMock({
    port: 0,
    keys: [`${ONE}:free:1:1000`, `${FOUR}:free:4:1000`],
    onRequest: (entry) => {
      if (entry.status === 429 && entry.session !== 'default' && mock.session(entry.session).clock.state().frozen) mock.session(entry.session).clock.unfreeze();
    },
  });
  [go, java] = await Promise.all([available.go ? buildGo() : undefined, available.java ? buildJava() : undefined]);
}, 150_000);
afterAll(async () => {
  await mock?.close();
  go?.remove();
  java?.remove();
  writeOrCheckTable();
});

type Mode = 'good' | 'bad';
interface Client {
  name: string;
  /** How it is configured, as the table says. */
  good: string;
  bad: string;
  tool?: keyof typeof available;
  /** Runs `workers` calls at once; gives each call's final status. */
  start(mode: Mode, workers: number, key: string, session: string): Promise<string>;
}

const node =
  (lib: string): Client['start'] =>
  (mode, workers, key, session) =>
    run(process.execPath, [`${PROGRAMS}node-client.mjs`, lib, mode, String(workers), mock.url, key, session]);
const python =
  (lib: string): Client['start'] =>
  (mode, workers, key, session) =>
    run(PYTHON, [`${PROGRAMS}retry_client.py`, lib, mode, String(workers), mock.url, key, session]);

/**
 * curl: `--retry` honours Retry-After; four calls at once are one process's parallel transfers
 * (`--parallel --parallel-immediate`), each to its own file, since a retry cannot truncate
 * /dev/null. The misbehaving configuration is a shell loop of curl calls, one connection each.
 */
async function curl(mode: Mode, workers: number, key: string, session: string): Promise<string> {
  const headers = ['-H', `Authorization: Bearer ${key}`, '-H', `X-Mock-Session: ${session}`];
  const target = `${mock.url}/pets?limit=1`;
  if (mode === 'good') {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-mock-curl-'));
    try {
      const transfers = Array.from({ length: workers }, (_, i) => ['-o', join(dir, String(i)), target]).flat();
      const out = await run('curl', ['-s', '--parallel', '--parallel-immediate', '--retry', '3', '-w', '%{http_code}\n', ...headers, ...transfers]);
      return out.split('\n').join(',');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const loop = 'for i in 1 2 3 4; do c=$(curl -s -o /dev/null -w "%{http_code}" "$@"); [ "$c" = 429 ] || break; sleep 0.2; done; echo "$c"';
  const one = (): Promise<string> => run('sh', ['-c', loop, 'sh', ...headers, target]);
  return (await Promise.all(Array.from({ length: workers }, one))).join(',');
}

const CLIENTS: Client[] = [
  { name: 'axios + axios-retry', good: 'retryDelay: exponentialDelay', bad: 'retryDelay: () => 50', start: node('axios-retry') },
  { name: 'ky', good: 'retry: { limit: 3 } (afterStatusCodes by default)', bad: 'afterStatusCodes: [], delay: () => 50', start: node('ky') },
  { name: 'got', good: 'retry: { limit: 3 }', bad: 'calculateDelay returning 50 ms', start: node('got') },
  { name: "undici's RetryAgent", good: 'statusCodes: [429], its default retry', bad: 'a retry function of its own, 50 ms', start: node('undici') },
  { name: 'p-retry around fetch', good: 'onFailedAttempt sleeps Retry-After', bad: 'minTimeout: 50, factor: 1', start: node('p-retry') },
  {
    name: 'Python requests + urllib3 Retry',
    good: 'Retry(status_forcelist=[429], respect_retry_after_header=True)',
    bad: 'respect_retry_after_header=False, backoff_factor=0',
    tool: 'python',
    start: python('requests'),
  },
  { name: 'tenacity around httpx', good: 'wait: max(Retry-After, wait_exponential)', bad: 'wait_fixed(0.05)', tool: 'python', start: python('tenacity') },
  { name: 'curl', good: '--retry 3 (four at once: --parallel)', bad: 'a shell loop, 200 ms between tries', tool: 'curl', start: curl },
  {
    name: 'Go net/http loop',
    good: 'sleeps Retry-After, doubling; a client per caller',
    bad: 'sleeps 50 ms',
    tool: 'go',
    start: (mode, workers, key, session) => run(go!.binary, [mode, String(workers), mock.url, key, session]),
  },
  {
    name: 'Java HttpClient loop',
    good: 'sleeps Retry-After, doubling; a client per caller',
    bad: 'sleeps 50 ms',
    tool: 'java',
    start: (mode, workers, key, session) => run('java', ['-cp', java!.classes, 'Loop', mode, String(workers), mock.url, key, session]),
  },
];

let sessions = 0;

/** A session whose clock stands at 12:00:59 until its first 429, with the minute's quota used but for one call in four. */
async function primed(workers: number): Promise<{ id: string; key: string }> {
  const id = `client-${++sessions}`;
  const session = mock.session(id);
  session.clock.freeze();
  session.clock.set(T59);
  const key = workers === 1 ? ONE : FOUR;
  for (let i = 0; i < (workers === 1 ? 1 : workers - 1); i++) {
    const res = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}`, 'x-mock-session': id } });
    await res.arrayBuffer();
    expect(res.status).toBe(200);
  }
  return { id, key };
}

async function auditOf(id: string): Promise<AuditReport> {
  const res = await fetch(`${mock.origin}/__admin/audit?session=${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as AuditReport;
}

const cases = CLIENTS.flatMap((client) =>
  (['good', 'bad'] as const).flatMap((mode) =>
    [1, 4].map((workers) => ({
      client,
      mode,
      workers,
      label: `${client.name}, ${mode === 'good' ? client.good : client.bad}, ${workers === 1 ? 'one call' : 'four calls at once'}`,
    })),
  ),
);

/** Without its tool a case skips, saying so, except in CI, where the pretest installed it. */
const runs = (client: Client): boolean => client.tool === undefined || available[client.tool] || CI;
const missing = CLIENTS.filter((c) => !runs(c)).map((c) => `${c.name} (${c.tool})`);
if (missing.length > 0)
  console.warn(`petstore-mock tests: skipping the real clients whose tools are missing: ${missing.join(', ')}; see scripts/ensure-system-packages.sh.`);

/** The rules the retry-rules suite tries one by one; here they are reported, not asserted. */
const NEW_RULES: readonly AuditRule[] = ['no-jitter', 'retry-after-misread', 'unsafe-create-retry'];
const verdicts = new Map<string, AuditRule[]>();
const DOC = new URL('../../docs/audit.md', import.meta.url);
const START = '<!-- real-clients table: written by test/clients/real-clients.test.ts -->';
const END = '<!-- end of real-clients table -->';

function cell(rules: readonly AuditRule[] | undefined): string {
  // Errors only: they are what the cases assert; a warning such as no-backoff comes and goes with timing.
  const old = (rules ?? []).filter((r) => !NEW_RULES.includes(r) && AUDIT_RULES[r] === 'error');
  return old.length === 0 ? 'clean' : old.map((r) => `\`${r}\``).join(', ');
}

function newCell(client: Client, mode: Mode, rule: AuditRule): string {
  const where = [1, 4].filter((w) => verdicts.get(`${client.name}|${mode}|${w}`)?.includes(rule)).map((w) => (w === 1 ? 'one call' : 'four at once'));
  return where.length === 0 ? '—' : where.join(', ');
}

/** The table of docs/audit.md, from the verdicts of a run in which every case ran. */
function writeOrCheckTable(): void {
  if (verdicts.size !== cases.length) return;
  const rows = CLIENTS.flatMap((client) =>
    (['good', 'bad'] as const).map(
      (mode) =>
        `| ${client.name} | ${mode === 'good' ? client.good : client.bad} | ${cell(verdicts.get(`${client.name}|${mode}|1`))} | ${cell(verdicts.get(`${client.name}|${mode}|4`))} | ${NEW_RULES.map((r) => newCell(client, mode, r)).join(' | ')} |`,
    ),
  );
  const table = [
    START,
    '',
    `| client | configuration | one call | four at once | ${NEW_RULES.map((r) => `\`${r}\``).join(' | ')} |`,
    `|---|---|---|---|${NEW_RULES.map(() => '---|').join('')}`,
    ...rows,
    '',
    END,
  ].join('\n');
  const doc = readFileSync(DOC, 'utf8');
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  const written = from === -1 || to === -1 ? undefined : doc.slice(from, to + END.length);
  if (process.env.UPDATE_AUDIT_TABLE === '1') writeFileSync(DOC, doc.replace(written ?? '', table));
  // Whether callers not built for the rule wake together depends on the machine's timing: the
  // no-jitter column records the run that wrote it, and the rest is checked.
  else expect(written && withoutJitter(written), 'docs/audit.md: run this file with UPDATE_AUDIT_TABLE=1 to write the table').toBe(withoutJitter(table));
}

/** The table with the no-jitter column's cells left out. */
function withoutJitter(table: string): string {
  return table
    .split('\n')
    .map((line) =>
      line.startsWith('| ') && !line.startsWith('| client')
        ? line
            .split(' | ')
            .filter((_cell, i) => i !== 4)
            .join(' | ')
        : line,
    )
    .join('\n');
}

async function wellBehaved({ client, workers }: (typeof cases)[number]): Promise<void> {
  const { id, key } = await primed(workers);
  const statuses = await client.start('good', workers, key, id);
  const journal = mock.session(id).requests();
  expect(statuses.split(','), JSON.stringify(journal.map((e) => [e.seq, e.status, e.at]))).toEqual(Array(workers).fill('200'));
  expect(journal.filter((e) => e.status === 429).length).toBeGreaterThanOrEqual(workers === 1 ? 1 : 3);
  expect(journal.some((e) => e.code === 'key_banned')).toBe(false);
  const report = await auditOf(id);
  verdicts.set(`${client.name}|good|${workers}`, [...new Set(report.findings.map((f) => f.rule))]);
  // The rules of the spec's waits find nothing; the retry rules' warnings (no-jitter) go in the table.
  expect({ ...report, findings: report.findings.filter((f) => !NEW_RULES.includes(f.rule)) }, JSON.stringify(journal)).toEqual({
    ok: true,
    findings: [],
    judged: { requests: journal.length, keys: [expect.objectContaining({ requests: journal.length })] },
  });
  expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
  mock.session(id).expectWellBehaved();
}

async function misbehaving({ client, workers }: (typeof cases)[number]): Promise<void> {
  const { id, key } = await primed(workers);
  await client.start('bad', workers, key, id);
  const report = await auditOf(id);
  verdicts.set(`${client.name}|bad|${workers}`, [...new Set(report.findings.map((f) => f.rule))]);
  expect(report.ok).toBe(false);
  const early = report.findings.filter((f) => f.rule === 'early-retry');
  expect(early, JSON.stringify(report)).toHaveLength(1);
  expect(early[0]).toMatchObject({ severity: 'error', key: key === ONE ? 'seq-…001' : 'par-…001' });
  // Every request it names came within the minute the 429 said to wait out, and was refused.
  const journal = mock.session(id).requests();
  const named = journal.filter((e) => early[0]!.requests.includes(e.seq));
  expect(named.length).toBeGreaterThanOrEqual(2);
  expect(named.every((e) => e.status === 429 && e.at < '2026-03-10T12:01:00.000Z')).toBe(true);
  expect(() => mock.session(id).expectWellBehaved()).toThrow(/early-retry \(error, key (seq|par)-…001\)/);
}

describe.concurrent('real clients judged by the client audit', () => {
  for (const c of cases) {
    const test = runs(c.client) ? it : it.skip;
    test(`${c.mode === 'good' ? 'well-behaved' : 'misbehaving'}: ${c.label}`, () => (c.mode === 'good' ? wellBehaved(c) : misbehaving(c)));
  }
});
