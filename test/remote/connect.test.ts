// connectMock drives a mock in another process over its admin API: every member of the handle
// startMock() gives, with promises, answering as the local handle does (the same values, the
// same messages); a mock with an admin token needs it; and a spawned CLI is driven the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMock, startMock, type RemoteMock, type RunningMock, type SessionHandle, type SharedRunningMock } from '../../src/index.js';
import { cliLauncher, waitFor } from '../e2e/cli.js';

let mock: RunningMock;
let remote: RemoteMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
  remote = await connectMock(mock.origin);
});
afterAll(async () => {
  await mock?.close();
});

const T = '2026-03-10T12:00:00.000Z';
const send = (session: string | undefined, path = '/v1/pets?limit=1', init: RequestInit = {}): Promise<Response> =>
  fetch(`${mock.origin}${path}`, {
    ...init,
    headers: { authorization: 'Bearer demo-free', 'content-type': 'application/json', ...(session !== undefined && { 'x-mock-session': session }) },
  });

/** The message a member's failure carries. */
async function failure(promise: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a failure');
}

// One type describes the remote handle and the shared state's: their sessions are the same type.
type Same<X, Y> = [X] extends [Y] ? ([Y] extends [X] ? true : false) : false;
const sessionsAlike: Same<ReturnType<RemoteMock['session']>, ReturnType<SharedRunningMock['session']>> = true;
const remoteSession: SessionHandle<true> = {} as ReturnType<RemoteMock['session']>;

describe('connectMock(origin): the handle of a mock in another process', () => {
  it('names the mock and its keys as startMock does', () => {
    expect(sessionsAlike && remoteSession !== undefined).toBe(true);
    expect(remote.url).toBe(mock.url);
    expect(remote.origin).toBe(mock.origin);
    expect(remote.keys).toEqual(mock.keys.map(({ custom: _custom, ...k }) => k));
    expect('close' in remote).toBe(false);
  });

  it('clock: set, freeze, advance, now, state, unfreeze act on the named session alone', async () => {
    const s = remote.session('clock-w');
    await s.clock.freeze();
    await s.clock.set(T);
    await s.clock.advance('90s');
    expect(await s.clock.now()).toEqual(new Date(Date.parse(T) + 90_000));
    expect(await s.clock.state()).toEqual({ now: '2026-03-10T12:01:30.000Z', frozen: true });
    expect(mock.session('clock-w').clock.state()).toEqual({ now: '2026-03-10T12:01:30.000Z', frozen: true });
    expect(mock.clock.state().frozen).toBe(false);
    await s.clock.unfreeze();
    expect((await s.clock.state()).frozen).toBe(false);
    expect((await remote.clock.state()).frozen).toBe(mock.clock.state().frozen);
  });

  it('useScenario and reset: the session switches and starts afresh', async () => {
    const s = remote.session('scenario-w');
    await s.useScenario('empty-store');
    expect(await (await send('scenario-w')).json()).toEqual([]);
    expect((await send('scenario-w', '/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Rex', categoryId: 1 }) })).status).toBe(201);
    expect(await (await send('scenario-w')).json()).toHaveLength(1);
    await s.reset();
    expect(await (await send('scenario-w')).json()).toEqual([]);
    expect((await send(undefined)).status).toBe(200);
    expect(((await (await send(undefined)).json()) as unknown[]).length).toBe(1);
  });

  it('requests, verify, recordDetails and har answer as the local handle does', async () => {
    const s = remote.session('journal-w');
    await s.recordDetails();
    await send('journal-w');
    await send('journal-w', '/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Tom', categoryId: 2 }) });
    const local = mock.session('journal-w');
    expect(await s.requests()).toEqual(local.requests());
    expect(await s.requests({ method: 'POST', details: true })).toEqual(local.requests({ method: 'POST', details: true }));
    expect(await s.verify({ method: 'POST', path: '/v1/pets' }, 1)).toEqual(local.verify({ method: 'POST', path: '/v1/pets' }, 1));
    expect(await failure(s.verify({ method: 'DELETE' }))).toBe(await failure(() => local.verify({ method: 'DELETE' })));
    expect(await s.har()).toEqual(local.har());
    expect((await s.har()).log.entries).toHaveLength(2);
    await s.recordDetails(false);
    expect(mock.session('journal-w').requests({ details: true }).length).toBe(2);
  });

  it('audit and expectWellBehaved judge the session as the local handle does', async () => {
    const s = remote.session('audit-w');
    await s.useScenario('ban');
    expect(await s.audit()).toEqual(mock.session('audit-w').audit());
    await expect(s.expectWellBehaved()).rejects.toThrow(/judged no request/);
    for (let i = 0; i < 20; i++) await send('audit-w');
    const report = await s.audit();
    expect(report.ok).toBe(false);
    expect(report).toEqual(mock.session('audit-w').audit());
    expect(await s.audit({ key: 'demo-pro' })).toEqual(mock.session('audit-w').audit({ key: 'demo-pro' }));
    expect(await failure(s.expectWellBehaved())).toBe(await failure(() => mock.session('audit-w').expectWellBehaved()));
  });

  it('snapshot and restore: a session taken remotely restores into another, which answers as the source', async () => {
    const s = remote.session('snap-src');
    await s.clock.freeze();
    await s.clock.set(T);
    await send('snap-src', '/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Kit', categoryId: 3 }) });
    const doc = await s.snapshot();
    expect({ ...doc, takenAt: '' }).toEqual({ ...mock.session('snap-src').snapshot(), takenAt: '' });
    await remote.session('snap-dst').restore(doc);
    const next = (body: string) => send('snap-dst', '/v1/pets', { method: 'POST', body });
    expect(await (await next(JSON.stringify({ name: 'Max', categoryId: 1 }))).json()).toMatchObject({ id: doc.store.nextId });
    expect(await remote.session('snap-dst').clock.state()).toEqual({ now: T, frozen: true });
  });

  it('sessions lists what the mock lists', async () => {
    // Without the clocks, which run on between the two looks.
    const seen = (list: { id: string; scenario: string; requests: number }[]) => list.map(({ id, scenario, requests }) => ({ id, scenario, requests }));
    expect(seen(await remote.sessions())).toEqual(seen(mock.sessions()));
    expect((await remote.sessions()).length).toBeGreaterThan(3);
  });

  it.each([
    [
      'restore of a document that is not a snapshot',
      (h: SessionHandle<true>) => h.restore({ format: 'nope' }),
      (h: SessionHandle) => h.restore({ format: 'nope' }),
    ],
    [
      'clock.advance past what a date holds',
      (h: SessionHandle<true>) => h.clock.advance('99999999999d'),
      (h: SessionHandle) => h.clock.advance('99999999999d'),
    ],
  ])('%s rejects with the message the local handle throws', async (_name, remoteCall, localCall) => {
    const message = await failure(remoteCall(remote.session('errors-w')));
    expect(message).toMatch(/^petstore-mock: /);
    expect(message).toBe(await failure(() => localCall(mock.session('errors-w'))));
  });

  it('useScenario of an unknown name rejects with the admin API\'s message: names only, a "did you mean"', async () => {
    expect(await failure(remote.session('errors-w').useScenario('rate-limit-minut'))).toMatch(
      /^petstore-mock: unknown scenario "rate-limit-minut" \(did you mean rate-limit-minute\?\); the admin API switches to one of default, /,
    );
  });

  it('takes the API base URL too, and refuses what is not an origin', async () => {
    expect((await connectMock(mock.url)).origin).toBe(mock.origin);
    expect(await failure(connectMock('127.0.0.1:4010'))).toBe(
      'petstore-mock: connectMock needs the mock\'s origin, such as http://127.0.0.1:4010, not "127.0.0.1:4010".',
    );
  });
});

describe('connectMock with an admin token', () => {
  let guarded: RunningMock;
  beforeAll(async () => {
    guarded = await startMock({ port: 0, adminToken: 'secret-token' });
  });
  afterAll(async () => {
    await guarded?.close();
  });
  it("without the token: rejected with the mock's own message; with it: connected", async () => {
    expect(await failure(connectMock(guarded.origin))).toBe(
      'petstore-mock: this admin API is protected; send "Authorization: Bearer <admin token>" (the value of --admin-token).',
    );
    const h = await connectMock(guarded.origin, { adminToken: 'secret-token' });
    await h.session('t').clock.freeze();
    expect(guarded.session('t').clock.state().frozen).toBe(true);
  });
});

describe('connectMock to a spawned CLI', () => {
  const cli = cliLauncher('--port', '0', '--ready-json');
  it("drives the CLI's sessions, clock and scenario from this process", async () => {
    const r = cli();
    const [line] = await waitFor(r, /^\{.*\}\n/);
    const { origin } = JSON.parse(line) as { origin: string };
    const h = await connectMock(origin);
    const s = h.session('cli-w');
    await s.clock.freeze();
    await s.clock.set(T);
    await s.useScenario('rate-limit-minute');
    const res = await fetch(`${origin}/v1/pets`, { headers: { authorization: 'Bearer demo-free', 'x-mock-session': 'cli-w' } });
    expect([res.status, res.headers.get('retry-after')]).toEqual([429, '60']);
    expect(await s.verify({ status: '429' }, 1)).toHaveLength(1);
    expect((await h.requests()).length).toBe(0);
  });
});
