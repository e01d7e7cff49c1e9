// Real clients doing right and wrong what the retry rules judge: unsafe-create-retry, no-jitter and
// retry-after-misread, each in its own process and session against one mock. docs/audit.md
// publishes the table these cases make; `UPDATE_AUDIT_TABLE=1` writes it, otherwise it is checked.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import type { AuditReport, AuditRule } from '../../src/core/audit/audit.js';
import { PROGRAMS, PYTHON, available, run } from './tools.js';

const ONE = 'rule-one-0001';
// Six callers: five refused together, past the four the no-jitter rule needs, so that jittered
// callers land within its window about one time in two thousand, not one time in 270.
const SIX = 'rule-six-0001';
const T59 = Date.UTC(2026, 2, 10, 12, 0, 59);
const T05 = Date.UTC(2026, 2, 10, 12, 0, 5);
const DOC = new URL('../../docs/audit.md', import.meta.url);
const START = '<!-- retry-rules table: written by test/clients/retry-rules-clients.test.ts -->';
const END = '<!-- end of retry-rules table -->';
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({
    port: 0,
    keys: [`${ONE}:free:1:1000`, `${SIX}:free:6:1000`],
    // A clock standing still until the first 429 lets a client that sleeps Retry-After sleep about a second.
    onRequest: (entry) => {
      const session = mock.session(entry.session);
      if (entry.status === 429 && entry.session.startsWith('rules-run-') && session.clock.state().frozen) session.clock.unfreeze();
    },
  });
});

interface Case {
  rule: AuditRule;
  client: string;
  configuration: string;
  mode: 'good' | 'bad';
  python?: boolean;
  /** Sets the session up; `run-` sessions start their clock at the first 429. */
  setup: (id: string) => Promise<void>;
  start: (id: string) => Promise<string>;
  statuses: string;
}

const node = (kind: string, mode: string) => (id: string) =>
  run(process.execPath, [`${PROGRAMS}retry-rules-client.mjs`, kind, mode, mock.url, kind === 'jitter' ? SIX : kind === 'misread' ? ONE : 'demo-pro', id]);

async function scenario(id: string, scenario: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${mock.origin}/__admin/scenario`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-mock-session': id },
    body: JSON.stringify({ scenario: { description: 'A retry-rules case.', ...scenario } }),
  });
  expect(res.status, await res.text()).toBe(200);
}

/** The clock frozen at `at` with `used` of the key's requests of the minute made. */
async function primed(id: string, at: number, key: string, used: number): Promise<void> {
  mock.session(id).clock.freeze();
  mock.session(id).clock.set(at);
  for (let i = 0; i < used; i++) {
    const res = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}`, 'x-mock-session': id } });
    await res.arrayBuffer();
  }
}

/**
 * A first GET refused with Retry-After: 3 written as an HTTP-date, on a session clock that runs
 * with real time: a client computes an HTTP-date's wait against its own clock.
 */
const forcedDate = (id: string) =>
  scenario(id, { retryAfterFormat: 'http-date', steps: [{ match: { method: 'GET', path: '/v1/pets' }, times: 1, answer: { status: 429, retryAfter: 3 } }] });
const resetFirstCreate = (id: string) => scenario(id, { steps: [{ match: { method: 'POST', path: '/v1/pets' }, times: 1, answer: { fault: 'reset' } }] });

const CASES: Case[] = [
  {
    rule: 'unsafe-create-retry',
    client: 'got',
    configuration: 'its defaults (no POST retried)',
    mode: 'good',
    setup: resetFirstCreate,
    start: node('create', 'good'),
    statuses: 'ECONNRESET',
  },
  {
    rule: 'unsafe-create-retry',
    client: 'got',
    configuration: "`methods: ['GET', 'POST']`",
    mode: 'bad',
    setup: resetFirstCreate,
    start: node('create', 'bad'),
    statuses: '201',
  },
  {
    rule: 'no-jitter',
    client: 'fetch loop, six callers',
    configuration: 'sleeps Retry-After plus a random share of a second',
    mode: 'good',
    setup: (id) => primed(id, T59, SIX, 5),
    start: node('jitter', 'good'),
    statuses: '200,200,200,200,200,200',
  },
  {
    rule: 'no-jitter',
    client: 'got, six callers',
    configuration: 'retry: { limit: 3 } (waits exactly Retry-After)',
    mode: 'bad',
    setup: (id) => primed(id, T59, SIX, 5),
    start: node('jitter', 'bad'),
    statuses: '200,200,200,200,200,200',
  },
  {
    rule: 'retry-after-misread',
    client: 'fetch loop',
    configuration: 'sleeps Retry-After × 1000 ms',
    mode: 'good',
    setup: (id) => primed(id, T59, ONE, 1),
    start: node('misread', 'good'),
    statuses: '200',
  },
  {
    rule: 'retry-after-misread',
    client: 'fetch loop',
    configuration: 'sleeps Retry-After ms (Retry-After: 55)',
    mode: 'bad',
    setup: (id) => primed(id, T05, ONE, 1),
    start: node('misread', 'bad'),
    statuses: '429',
  },
  {
    rule: 'retry-after-misread',
    client: 'Python requests + urllib3 `Retry`',
    configuration: '`respect_retry_after_header=True`, Retry-After as an HTTP-date',
    mode: 'good',
    python: true,
    setup: forcedDate,
    start: (id) => run(PYTHON, [`${PROGRAMS}retry_client.py`, 'requests', 'good', '1', mock.url, 'demo-pro', id]),
    statuses: '200',
  },
  {
    rule: 'retry-after-misread',
    client: 'fetch loop',
    configuration: 'reads only seconds (an HTTP-date gives NaN: 100 ms)',
    mode: 'bad',
    setup: forcedDate,
    start: node('date', 'bad'),
    statuses: '200',
  },
];

const verdicts = new Map<Case, AuditRule[]>();
afterAll(async () => {
  await mock?.close();
  if (verdicts.size !== CASES.length) return;
  const rows = CASES.map(
    (c) =>
      `| ${c.client} | ${c.configuration} | \`${c.rule}\` | ${
        verdicts.get(c)!.length === 0
          ? 'clean'
          : verdicts
              .get(c)!
              .map((r) => `\`${r}\``)
              .join(', ')
      } |`,
  );
  const table = [START, '', '| client | configuration | rule tried | findings |', '|---|---|---|---|', ...rows, '', END].join('\n');
  const doc = readFileSync(DOC, 'utf8');
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  const written = from === -1 || to === -1 ? undefined : doc.slice(from, to + END.length);
  if (process.env.UPDATE_AUDIT_TABLE === '1') writeFileSync(DOC, doc.replace(written ?? '', table));
  else expect(written, 'docs/audit.md: run this file with UPDATE_AUDIT_TABLE=1 to write the table').toBe(table);
});

// One case at a time: the audit reads arrivals to the millisecond, and a mock whose process is busy
// starting the next client reads requests late.
describe('real clients judged by the retry rules', () => {
  it.each(CASES.map((c, i) => ({ ...c, i, label: `${c.mode === 'good' ? 'cleared' : 'caught'}: ${c.client}, ${c.configuration}` })))(
    '$rule, $label',
    async (c) => {
      if (c.python === true && !available.python && process.env.CI !== 'true') return expect(available.python).toBe(false);
      const id = `rules-run-${c.i}`;
      await c.setup(id);
      const statuses = await c.start(id);
      const journal = mock.session(id).requests();
      expect(statuses, JSON.stringify(journal.map((e) => [e.seq, e.method, e.status, e.at, e.arrivalMs, e.connection]))).toBe(c.statuses);
      const res = await fetch(`${mock.origin}/__admin/audit?session=${id}`);
      const report = (await res.json()) as AuditReport;
      const found = [...new Set(report.findings.map((f) => f.rule))].sort();
      verdicts.set(CASES[c.i]!, found);
      if (c.mode === 'good') expect(found, JSON.stringify(report)).not.toContain(c.rule);
      else {
        const mine = report.findings.filter((f) => f.rule === c.rule);
        expect(mine, JSON.stringify(report)).toHaveLength(1);
        expect(mine[0]!.message).toMatch(/\. [A-Z]/);
      }
    },
  );
});
