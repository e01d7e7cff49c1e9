// Real HTTP clients against the mock, judged by its client audit. Each test runs in its own
// session whose clock stands still one second before a minute's end until the first 429, then runs
// in real time: that 429 says Retry-After: 1, so a client that honours it really sleeps a second,
// and one that ignores it retries within the same second, however slow the machine was before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import axios, { type AxiosError } from 'axios';
import axiosRetry from 'axios-retry';
import ky from 'ky';
import got from 'got';
import { startMock, type RunningMock, type SessionHandle } from '../../src/index.js';

const KEY = 'sdk-key-1';
/** Half a second before 12:01: a 429 says Retry-After: 1, and a second later the minute has turned with room to spare. */
const T59 = Date.UTC(2026, 2, 10, 12, 0, 59, 500);

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({
    port: 0,
    keys: [`${KEY}:free:1:1000`],
    // Called as the 429 is journaled, before it is sent: the wait starts on a running clock.
    onRequest: (entry) => {
      if (entry.status === 429 && entry.session !== 'default' && mock.session(entry.session).clock.state().frozen) mock.session(entry.session).clock.unfreeze();
    },
  });
});
afterAll(async () => {
  await mock?.close();
});

let sessions = 0;
/** A fresh session whose one request of the minute is used, its clock frozen at 12:00:59.5 until its first 429. */
async function primed(): Promise<{ id: string; session: SessionHandle; headers: Record<string, string> }> {
  const id = `audit-${++sessions}`;
  const session = mock.session(id);
  session.clock.freeze();
  session.clock.set(T59);
  const headers = { authorization: `Bearer ${KEY}`, 'x-mock-session': id };
  const first = await fetch(`${mock.url}/pets?limit=1`, { headers });
  await first.arrayBuffer();
  expect(first.status).toBe(200);
  return { id, session, headers };
}

const statuses = (session: SessionHandle) => session.requests().map((e) => e.status);

/** The client that honours Retry-After comes out clean; the journal shows it waited. */
function expectClean(session: SessionHandle): void {
  expect(statuses(session)).toEqual([200, 429, 200]);
  const [, refused, retried] = session.requests();
  expect(refused!.retryAfter).toBe(1);
  expect(Date.parse(retried!.at) - Date.parse(refused!.at)).toBeGreaterThanOrEqual(990);
  expect(session.audit()).toEqual({ ok: true, findings: [], judged: { requests: 3, keys: [{ key: 'sdk-…y-1', keyId: refused!.keyId, requests: 3 }] } });
  session.expectWellBehaved();
}

/** The client that ignores it: its two retries are early, shown with the 429 that announced the wait. */
function expectEarly(session: SessionHandle): void {
  expect(statuses(session)).toEqual([200, 429, 429, 429]);
  const report = session.audit();
  expect(report.ok).toBe(false);
  expect(report.findings.filter((f) => f.rule === 'early-retry').map((f) => [f.key, f.requests])).toEqual([['sdk-…y-1', [2, 3, 4]]]);
  expect(() => session.expectWellBehaved()).toThrow(
    /early-retry \(error, key sdk-…y-1\): 2 requests with key sdk-…y-1 \(#3 and #4\) came before the Retry-After of 1 s of the 429 at #2/,
  );
}

describe('real clients judged by the client audit', () => {
  it('axios with axios-retry: exponentialDelay honours Retry-After; a zero delay does not', async () => {
    const retry429 = (error: AxiosError) => error.response?.status === 429;
    const good = await primed();
    const honours = axios.create({ baseURL: mock.url, headers: good.headers });
    axiosRetry(honours, { retries: 2, retryCondition: retry429, retryDelay: axiosRetry.exponentialDelay });
    expect((await honours.get('/pets?limit=1')).status).toBe(200);
    expectClean(good.session);

    const bad = await primed();
    const ignores = axios.create({ baseURL: mock.url, headers: bad.headers });
    axiosRetry(ignores, { retries: 2, retryCondition: retry429, retryDelay: () => 0 });
    await expect(ignores.get('/pets?limit=1')).rejects.toMatchObject({ response: { status: 429 } });
    expectEarly(bad.session);
  });

  it('ky: its defaults honour Retry-After; no afterStatusCodes and a fixed delay do not', async () => {
    const good = await primed();
    expect((await ky.get(`${mock.url}/pets?limit=1`, { headers: good.headers })).status).toBe(200);
    expectClean(good.session);

    const bad = await primed();
    const ignoring = ky.get(`${mock.url}/pets?limit=1`, { headers: bad.headers, retry: { limit: 2, afterStatusCodes: [], delay: () => 5 } });
    await expect(ignoring).rejects.toMatchObject({ response: { status: 429 } });
    expectEarly(bad.session);
  });

  it('got: its defaults honour Retry-After; a calculateDelay of its own does not', async () => {
    const good = await primed();
    expect((await got(`${mock.url}/pets?limit=1`, { headers: good.headers, retry: { limit: 2 } })).statusCode).toBe(200);
    expectClean(good.session);

    const bad = await primed();
    const ignoring = got(`${mock.url}/pets?limit=1`, {
      headers: bad.headers,
      retry: { limit: 2, calculateDelay: ({ computedValue }) => (computedValue > 0 ? 1 : 0) },
    });
    await expect(ignoring).rejects.toMatchObject({ response: { statusCode: 429 } });
    expectEarly(bad.session);
  });

  it('a hand-written fetch loop: sleeping Retry-After is clean, retrying at once is not', async () => {
    const loop = async (headers: Record<string, string>, honour: boolean): Promise<number> => {
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(`${mock.url}/pets?limit=1`, { headers });
        await res.arrayBuffer();
        if (res.status !== 429 || attempt === 2) return res.status;
        if (honour) await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after')) * 1000));
      }
    };
    const good = await primed();
    expect(await loop(good.headers, true)).toBe(200);
    expectClean(good.session);

    const bad = await primed();
    expect(await loop(bad.headers, false)).toBe(429);
    expectEarly(bad.session);
  });

  it('GET /__admin/audit answers the same report for the session, by header or ?session=', async () => {
    const bad = await primed();
    await fetch(`${mock.url}/pets?limit=1`, { headers: bad.headers }).then((r) => r.arrayBuffer());
    await fetch(`${mock.url}/pets?limit=1`, { headers: bad.headers }).then((r) => r.arrayBuffer());
    const byQuery = await fetch(`${mock.origin}/__admin/audit?session=${bad.id}`);
    expect(byQuery.status).toBe(200);
    const body: unknown = await byQuery.json();
    expect(body).toEqual(bad.session.audit());
    expect(body).toMatchObject({ ok: false, findings: [{ rule: 'early-retry', severity: 'error', key: 'sdk-…y-1', requests: [2, 3] }] });
    const byHeader = await fetch(`${mock.origin}/__admin/audit?key=${KEY}`, { headers: { 'x-mock-session': bad.id } });
    expect(await byHeader.json()).toEqual(body);
    const otherKey = await fetch(`${mock.origin}/__admin/audit?session=${bad.id}&key=demo-pro`);
    expect(await otherKey.json()).toEqual({ ok: true, findings: [], judged: { requests: 0, keys: [] } });
  });

  it('GET /__admin/audit creates no session, and refuses unknown or contradicting parameters', async () => {
    const before = mock.sessions().length;
    const unseen = await fetch(`${mock.origin}/__admin/audit?session=never-used`);
    expect(await unseen.json()).toEqual({ ok: true, findings: [], judged: { requests: 0, keys: [] } });
    expect(mock.sessions().length).toBe(before);
    const typo = await fetch(`${mock.origin}/__admin/audit?keys=x`);
    expect(typo.status).toBe(400);
    expect(await typo.json()).toMatchObject({
      code: 'admin_invalid_request',
      message: 'petstore-mock: the audit has no parameter "keys"; it takes session and key.',
    });
    const both = await fetch(`${mock.origin}/__admin/audit?session=a`, { headers: { 'x-mock-session': 'b' } });
    expect(both.status).toBe(400);
  });
});
