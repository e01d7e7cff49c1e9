import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startMock } from '../../src/index.js';
import { rawExchange } from '../support/raw.js';

// close() drains: the answers in flight are finished (a scenario's latency included, real time
// kept short), for drainTime seconds at most, and what is cut then is said on stderr.

function latencyScenario(latency: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-drain-')), 'held.yaml');
  writeFileSync(file, `description: every answer held back\nlatency: ${latency}\n`);
  return file;
}

const GET = 'GET /v1/pets/3 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-pro\r\n\r\n';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('close() of the library', () => {
  it('finishes the answers in flight, pipelined ones included, then closes their connection', async () => {
    const mock = await startMock({ scenario: latencyScenario('300ms') });
    const exchange = rawExchange(mock, [GET + GET]);
    await vi.waitUntil(() => mock.requests().length === 2, { timeout: 5000, interval: 5 });
    await mock.close();
    const { replies, closed } = await exchange;
    expect(replies.map((r) => [r.status, r.json?.id])).toEqual([
      [200, 3],
      [200, 3],
    ]);
    expect(closed).toBe(true);
  });

  it('cuts what is left after drainTime and says so on stderr', async () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((line: string | Uint8Array) => lines.push(String(line)) > 0);
    const mock = await startMock({ scenario: latencyScenario('10s'), drainTime: 0.2 });
    const exchange = rawExchange(mock, [GET]);
    await vi.waitUntil(() => mock.requests().length === 1, { timeout: 5000, interval: 5 });
    await mock.close();
    const { replies, closed } = await exchange;
    expect(replies).toEqual([]);
    expect(closed).toBe(true);
    expect(lines).toEqual(['petstore-mock: the drain time of 0.2 s ran out; closed 1 connection with answers still owed: GET /v1/pets/3.\n']);
  });

  it('closes idle keep-alive connections at once', async () => {
    const mock = await startMock({ drainTime: 30 });
    const res = await fetch(`${mock.url}/pets/1`, { headers: { authorization: 'Bearer demo-pro' } });
    expect(res.status).toBe(200);
    await res.text();
    const started = Date.now();
    await mock.close();
    // Not a timing assertion on the mock's speed: a close that waited for the drain time would take 30 s.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it.each([-1, 3601, Number.NaN, '5'])('drainTime %j is refused, naming the option', async (value) => {
    await expect(startMock({ drainTime: value as number })).rejects.toThrow('the option "drainTime" must be a number of seconds from 0 to 3600');
  });

  it('close({ lameDuck }) first keeps answering, each answer with Connection: close and health at 503, then stops accepting', async () => {
    const mock = await startMock();
    const health = async (): Promise<number | string> =>
      (await fetch(`${mock.origin}/__admin/health`).catch((e: { cause?: { code?: string } }) => ({ status: e.cause?.code ?? 'error' }))).status;
    expect(await health()).toBe(200);
    let closed = false;
    const closing = mock.close({ lameDuck: 3 }).then(() => (closed = true));
    expect(await health()).toBe(503);
    const res = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-pro' } });
    expect([res.status, res.headers.get('connection'), closed]).toEqual([200, 'close', false]);
    await closing;
    expect(await health()).toBe('ECONNREFUSED');
  });

  it.each([-1, 3601, Number.NaN, '3'])('close({ lameDuck: %j }) is refused, naming the option, and stops nothing', async (value) => {
    const mock = await startMock();
    await expect(mock.close({ lameDuck: value as number })).rejects.toThrow('the option "lameDuck" must be a number of seconds from 0 to 3600');
    expect((await fetch(`${mock.origin}/__admin/health`)).status).toBe(200);
    await mock.close();
  });

  it('in the lame duck, pipelined requests each get their answer, the last one saying Connection: close', async () => {
    const mock = await startMock({ scenario: latencyScenario('200ms') });
    const closing = mock.close({ lameDuck: 3 });
    const { replies, closed } = await rawExchange(mock, [GET + GET + GET]);
    expect(replies.map((r) => [r.status, r.headers.connection])).toEqual([
      [200, 'keep-alive'],
      [200, 'keep-alive'],
      [200, 'close'],
    ]);
    expect(closed).toBe(true);
    await closing;
  });

  it('in the lame duck, a request read after an answer that said Connection: close is not processed (RFC 9112, 9.6)', async () => {
    const mock = await startMock();
    const closing = mock.close({ lameDuck: 3 });
    // Answered at once, the first GET says Connection: close before the second is read.
    const { replies, closed } = await rawExchange(mock, [GET + GET]);
    expect(replies.map((r) => [r.status, r.headers.connection])).toEqual([[200, 'close']]);
    expect(closed).toBe(true);
    expect(mock.requests().map((e) => `${e.method} ${e.path}`)).toEqual(['GET /v1/pets/3']);
    await closing;
  });
});
