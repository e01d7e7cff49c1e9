// A declared operation's 503 with Retry-After is a wait like a 429's: a loop that ignores it, then
// the 429s, then runs into a ban is judged on the declared operation as on the specification's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';

const KEY = 'loop-key-0001';
const T30 = Date.UTC(2026, 2, 10, 12, 0, 30);
let mock: RunningMock;

const DECLARED = {
  description: 'Orders are down for a while, then answer.',
  operations: [
    {
      operationId: 'listOrders',
      method: 'GET',
      path: '/v1/store/orders',
      answers: [
        { status: 503, headers: { 'Retry-After': '5' }, body: { code: 'maintenance', message: 'Back in 5 s.', status: 503 }, times: 2 },
        { status: 200, body: [] },
      ],
    },
  ],
};

beforeAll(async () => {
  mock = await startMock({ port: 0, keys: [`${KEY}:free:3:1000`] });
});
afterAll(() => mock?.close());

async function session(id: string): Promise<(count: number) => Promise<number[]>> {
  const put = await fetch(`${mock.origin}/__admin/scenario`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-mock-session': id },
    body: JSON.stringify({ scenario: DECLARED }),
  });
  expect(put.status, await put.text()).toBe(200);
  mock.session(id).clock.freeze();
  mock.session(id).clock.set(T30);
  return async (count) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await fetch(`${mock.url}/store/orders`, { headers: { authorization: `Bearer ${KEY}`, 'x-mock-session': id } });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    return statuses;
  };
}

describe("a declared operation's 503 with Retry-After", () => {
  it('is a wait: a loop that ignores it, then the 429s, is an early retry and a request while banned', async () => {
    const send = await session('declared-loop');
    const statuses = await send(24);
    expect(statuses.slice(0, 3)).toEqual([503, 503, 200]);
    expect(statuses).toContain(429);
    const journal = mock.session('declared-loop').requests();
    const banned = journal.find((e) => e.code === 'key_banned');
    expect(banned).toBeDefined();
    const report = mock.session('declared-loop').audit();
    expect(report.ok).toBe(false);
    const rules = report.findings.map((f) => f.rule);
    expect(rules).toEqual(expect.arrayContaining(['early-retry', 'request-while-banned']));
    const early = report.findings.find((f) => f.rule === 'early-retry')!;
    // Node's fetch may send #2 on a second new connection, a parallel caller's look; #3 reuses the first.
    expect(early.requests[0]).toBe(1);
    expect(early.requests).toContain(3);
    expect(early.message).toMatch(/came before the Retry-After of 5 s of the 503 at #1/);
    const afterBan = journal.filter((e) => e.seq > banned!.seq).map((e) => e.seq);
    expect(report.findings.find((f) => f.rule === 'request-while-banned')!.requests).toEqual([banned!.seq, ...afterBan]);
  });

  it('is kept by a client that waits it out: no finding', async () => {
    const send = await session('declared-waits');
    expect(await send(1)).toEqual([503]);
    mock.session('declared-waits').clock.advance('5s');
    expect(await send(1)).toEqual([503]);
    mock.session('declared-waits').clock.advance('5s');
    expect(await send(1)).toEqual([200]);
    expect(mock.session('declared-waits').audit()).toMatchObject({ ok: true, findings: [] });
  });
});
