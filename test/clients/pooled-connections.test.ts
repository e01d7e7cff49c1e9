// Real clients whose connections are pooled across sessions retry early on a connection that
// carried another session's requests: the audit judges "new connection" by the connection's whole
// history, so the verdict of one session does not depend on another's traffic.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import type { AuditReport } from '../../src/core/audit/audit.js';
import { PROGRAMS, PYTHON, available, run } from './tools.js';

const KEY = 'pool-key-0001';
const T59 = Date.UTC(2026, 2, 10, 12, 0, 59);
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: 0, keys: [`${KEY}:free:1:1000`] });
});
afterAll(() => mock?.close());

const CLIENTS = [
  {
    name: "Node's fetch (undici) over one shared Agent",
    start: (s: string, w: string) => run(process.execPath, [`${PROGRAMS}pooled-client.mjs`, 'fetch', mock.url, KEY, s, w]),
  },
  {
    name: 'axios with a keep-alive http.Agent',
    start: (s: string, w: string) => run(process.execPath, [`${PROGRAMS}pooled-client.mjs`, 'axios', mock.url, KEY, s, w]),
  },
  { name: 'Python requests.Session', python: true, start: (s: string, w: string) => run(PYTHON, [`${PROGRAMS}pooled_client.py`, mock.url, KEY, s, w]) },
];

/** A session frozen at 12:00:59 with the key's one request of the minute used; its warm twin answers after 600 ms. */
async function sessions(n: number): Promise<{ id: string; warm: string }> {
  const id = `pooled-${n}`;
  const warm = `pooled-warm-${n}`;
  const session = mock.session(id);
  session.clock.freeze();
  session.clock.set(T59);
  const res = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${KEY}`, 'x-mock-session': id } });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  const put = await fetch(`${mock.origin}/__admin/scenario`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-mock-session': warm },
    body: JSON.stringify({ scenario: { description: 'Every answer after 600 ms.', latency: { min: '600ms', max: '600ms' } } }),
  });
  expect(put.status, await put.text()).toBe(200);
  return { id, warm };
}

describe.concurrent('an early retry on a pooled connection that carried another session', () => {
  it.each(CLIENTS.map((c, i) => ({ ...c, i })))('$name is an early retry', async ({ start, python, i }) => {
    if (python === true && !available.python && process.env.CI !== 'true') return expect(available.python).toBe(false);
    const { id, warm } = await sessions(i);
    expect(await start(id, warm)).toBe('429,429');
    const journal = mock.session(id).requests();
    const [, refused, retry] = journal;
    // The retry came on the pool's other connection, whose only earlier requests were the warm session's.
    expect(retry!.connection).not.toBe(refused!.connection);
    expect(retry!.connectionUse).toBeGreaterThan(1);
    expect(journal.filter((e) => e.connection === retry!.connection)).toHaveLength(1);
    const res = await fetch(`${mock.origin}/__admin/audit?session=${id}`);
    const report = (await res.json()) as AuditReport;
    expect(report.ok).toBe(false);
    expect(report.findings.map((f) => [f.rule, f.requests])).toEqual([['early-retry', [refused!.seq, retry!.seq]]]);
  });
});
