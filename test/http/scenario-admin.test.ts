import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunningMock } from '../../src/index.js';
import { shippedScenarios } from '../../src/files/scenario-files.js';
import { adminCall, type AdminInit, type AdminReply, type ErrorJson, type ScenarioJson } from '../support/admin.js';
import { T0, call, post } from '../support/mock.js';
import { fakeTime, startWithTime, writeScenario } from '../support/replay.js';

function admin<T = unknown>(mock: RunningMock, path: string, init: AdminInit = {}): Promise<AdminReply<T>> {
  return adminCall<T>(mock.origin, path, init);
}

const put = (name: unknown, session?: string) => ({ method: 'PUT', body: JSON.stringify({ name }), session });

describe('scenarios through the admin API', () => {
  it('lists the shipped scenarios with their descriptions', async () => {
    const mock = await startWithTime(fakeTime(T0));
    const list = (await admin<ScenarioJson[]>(mock, 'scenarios')).json;
    expect(list).toEqual(shippedScenarios().map((s) => ({ name: s.name, description: s.description })));
    expect(list.length).toBeGreaterThanOrEqual(11);
  });

  it('PUT scenario switches, GET scenario tells, and the API follows', async () => {
    const mock = await startWithTime(fakeTime(T0));
    expect((await call(mock, '/v1/pets/1')).status).toBe(200);
    const switched = await admin(mock, 'scenario', put('removed'));
    expect({ status: switched.status, json: switched.json }).toEqual({
      status: 200,
      json: { name: 'removed', session: 'default', clock: { now: '2031-01-01T00:00:00.000Z', frozen: false } },
    });
    expect((await admin(mock, 'scenario')).json).toEqual(expect.objectContaining({ name: 'removed', description: expect.stringContaining('410') }));
    expect((await call(mock, '/v1/pets/1')).status).toBe(410);
    await admin(mock, 'scenario', put('default'));
    expect((await call(mock, '/v1/pets/1')).status).toBe(200);
  });

  it.each([
    [{ name: 'nope' }, 400, 'scenario_invalid', /^petstore-mock: unknown scenario "nope"; the admin API switches to one of default, ban, /],
    [{ name: '' }, 400, 'admin_invalid_request', /needs a JSON body \{"name": "<scenario>"\}/],
    [{ scenario: 'ban' }, 400, 'admin_invalid_request', /needs a JSON body/],
    [[], 400, 'admin_invalid_request', /needs a JSON body/],
  ])('PUT scenario %j -> %i %s', async (body, status, code, message) => {
    const mock = await startWithTime(fakeTime(T0));
    const res = await admin(mock, 'scenario', { method: 'PUT', body: JSON.stringify(body) });
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ code, message: expect.stringMatching(message), status });
    expect((await admin<ScenarioJson>(mock, 'scenario')).json.name).toBe('default');
  });

  it('switches over HTTP by name only; a file loaded at start or by the library is switchable by its name', async () => {
    const file = writeScenario('qa-walk.yaml', ['description: a QA file', 'keys:', '  - key: demo-pro', '    revoked: true']);
    const mock = await startWithTime(fakeTime(T0), { scenario: file });
    const byPath = await admin(mock, 'scenario', put(file));
    expect(byPath.status).toBe(400);
    expect(byPath.json).toEqual({ code: 'scenario_invalid', message: expect.stringContaining('switches scenarios by name'), status: 400 });
    await admin(mock, 'scenario', put('default'));
    expect((await call(mock, '/v1/pets', { key: 'demo-pro' })).status).toBe(200);
    expect((await admin<ScenarioJson>(mock, 'scenario', put('qa-walk'))).json.name).toBe('qa-walk');
    expect((await call(mock, '/v1/pets', { key: 'demo-pro' })).json.code).toBe('revoked_api_key');
    expect((await admin<ScenarioJson[]>(mock, 'scenarios')).json.at(-1)).toEqual({ name: 'qa-walk', description: 'a QA file' });
  });

  it('an unknown name gets a "did you mean" and the names it can switch to, the loaded file among them, and no path', async () => {
    const file = writeScenario('beta-walk.yaml', ['description: a QA file']);
    const mock = await startWithTime(fakeTime(T0), { scenario: file });
    const names = [...shippedScenarios().map((s) => s.name), 'beta-walk'].join(', ');
    for (const [typed, near] of [
      ['bann', ' (did you mean ban?)'],
      ['beta-wlak', ' (did you mean beta-walk?)'],
      ['checkout-outage', ''],
    ]) {
      const res = await admin<ErrorJson>(mock, 'scenario', put(typed));
      expect({ status: res.status, message: res.json.message }).toEqual({
        status: 400,
        message: `petstore-mock: unknown scenario "${typed}"${near}; the admin API switches to one of ${names} (GET /__admin/scenarios lists them).`,
      });
    }
  });

  it('keeps listing a loaded file that was deleted during the run, and says so when switched to', async () => {
    const file = writeScenario('short-lived.yaml', ['description: soon gone']);
    const mock = await startWithTime(fakeTime(T0), { scenario: file });
    rmSync(file);
    expect((await admin<ScenarioJson[]>(mock, 'scenarios')).json.at(-1)).toEqual({ name: 'short-lived', description: 'soon gone' });
    expect((await admin(mock, 'scenario')).json).toEqual(expect.objectContaining({ name: 'short-lived', description: 'soon gone' }));
    const switched = await admin<ErrorJson>(mock, 'scenario', put('short-lived'));
    expect(switched.status).toBe(400);
    expect(switched.json.message).toContain('cannot read the scenario file');
  });

  it('a scenario file that breaks on this server is refused with its line, and the session keeps its scenario', async () => {
    const file = writeScenario('needs-key.yaml', ['description: uses a key only some servers have', 'usage:', '  - key: ci-key', '    minute: full']);
    const plain = await startWithTime(fakeTime(T0), { scenario: 'ban' });
    expect(() => plain.useScenario(file)).toThrow(`petstore-mock: ${file}:3:5: usage names the key "ci-key"`);
    expect((await admin<ScenarioJson>(plain, 'scenario')).json.name).toBe('ban');
    const withKey = await startWithTime(fakeTime(T0), { keys: ['ci-key:pro'] });
    withKey.useScenario(file);
    expect((await call(withKey, '/v1/pets', { key: 'ci-key' })).json.code).toBe('rate_limited');
  });

  it("POST reset restores the scenario's own start: store, usage, bans, clock and journal", async () => {
    const mock = await startWithTime(fakeTime(T0), { scenario: 'banned' });
    await admin(mock, 'clock', { method: 'POST', body: '{"advance":"5m"}' });
    const created = await call(mock, '/v1/pets', post({ name: 'Tmp', categoryId: 1 }));
    expect(created.status).toBe(201);
    const reset = await admin(mock, 'reset', { method: 'POST' });
    expect(reset.json).toEqual({ reset: true, session: 'default', scenario: 'banned', clock: { now: new Date(T0).toISOString(), frozen: false } });
    expect((await admin(mock, 'requests')).json).toEqual([]);
    expect((await call(mock, '/v1/pets')).json.code).toBe('key_banned');
    expect((await call(mock, `/v1/pets/${created.json.id}`, { key: 'demo-pro' })).status).toBe(404);
  });

  it('the journal says why a forced answer was given', async () => {
    const mock = await startWithTime(fakeTime(T0), { scenario: 'create-fails-third' });
    for (const name of ['A', 'B', 'C']) await call(mock, '/v1/pets', post({ name, categoryId: 1 }));
    const journal = (await admin<{ status: number; code?: string; reason: string }[]>(mock, 'requests')).json;
    expect(journal.map((e) => [e.status, e.code, e.reason])).toEqual([
      [201, undefined, expect.stringMatching(/^created animal \d+$/)],
      [201, undefined, expect.stringMatching(/^created animal \d+$/)],
      [503, 'service_unavailable', 'scenario create-fails-third, step 2: forced 503'],
    ]);
  });

  it('the library does the same: useScenario, reset, clock and requests', async () => {
    const mock = await startWithTime(fakeTime(T0));
    mock.useScenario('removal-eve');
    expect((await call(mock, '/v1/pets/1')).status).toBe(200);
    mock.clock.advance('61s');
    expect((await call(mock, '/v1/pets/1')).status).toBe(410);
    expect(mock.requests().map((e) => e.status)).toEqual([200, 410]);
    mock.reset();
    expect(mock.requests()).toEqual([]);
    expect(mock.clock.state()).toEqual({ now: '2030-12-04T23:59:00.000Z', frozen: true });
    expect(() => mock.useScenario('nope')).toThrow('unknown scenario "nope"');
  });
});

describe('sessions', () => {
  it('each X-Mock-Session has its own scenario, store, counters, clock and journal', async () => {
    const mock = await startWithTime(fakeTime(T0));
    const a = { headers: { 'x-mock-session': 'worker-a' } };
    const b = { headers: { 'x-mock-session': 'worker-b' } };
    await admin(mock, 'scenario', put('revoked-key', 'worker-a'));
    await admin(mock, 'clock', { method: 'POST', body: '{"set":"2031-01-01T00:00:00Z"}', session: 'worker-b' });
    expect((await call(mock, '/v1/pets', a)).json.code).toBe('revoked_api_key');
    expect((await call(mock, '/v1/pets', b)).status).toBe(200);
    expect((await call(mock, '/v1/pets')).status).toBe(200);
    expect((await call(mock, '/v1/pets/1', b)).status).toBe(410);
    expect((await call(mock, '/v1/pets/1')).status).toBe(200);

    const created = await call(mock, '/v1/pets', {
      ...post({ name: 'OnlyB', categoryId: 1 }),
      headers: { 'content-type': 'application/json', 'x-mock-session': 'worker-b' },
    });
    expect(created.headers.get('x-mock-session')).toBe('worker-b');
    expect((await call(mock, `/v1/pets/${created.json.id}`)).status).toBe(404);
    expect((await call(mock, '/v1/pets?limit=1', b)).headers.get('x-ratelimit-remaining')).toBe('56');
    // Four requests each so far: a shared counter would be at 52.
    expect((await call(mock, '/v1/pets?limit=1')).headers.get('x-ratelimit-remaining')).toBe('56');

    expect((await admin<ScenarioJson>(mock, 'scenario', { session: 'worker-a' })).json.name).toBe('revoked-key');
    expect((await admin<ScenarioJson>(mock, 'scenario')).json.name).toBe('default');
    expect((await admin<{ session: string }[]>(mock, 'requests', { session: 'worker-a' })).json.map((e) => e.session)).toEqual(['worker-a']);
    expect(
      mock
        .session('worker-b')
        .requests()
        .every((e) => e.session === 'worker-b'),
    ).toBe(true);
    expect(mock.session('worker-b').clock.now().getTime()).toBeGreaterThanOrEqual(Date.UTC(2031, 0, 1));
  });

  it("parallel workers in their own sessions never see each other's requests", async () => {
    const mock = await startWithTime(fakeTime(T0));
    const workers = ['w0', 'w1', 'w2', 'w3', 'w4'];
    workers.forEach((w, i) => mock.session(w).useScenario(i % 2 === 0 ? 'empty-store' : 'default'));
    await Promise.all(
      workers.flatMap((w) =>
        Array.from({ length: 8 }, (_, i) =>
          call(mock, '/v1/pets', {
            ...post({ name: `${w}-${i}`, categoryId: 1, status: 'pending' }),
            headers: { 'content-type': 'application/json', 'x-mock-session': w },
          }),
        ),
      ),
    );
    for (const [i, w] of workers.entries()) {
      const list = (await call(mock, '/v1/pets?limit=100&status=pending', { key: 'demo-pro', headers: { 'x-mock-session': w } })).json as { name: string }[];
      expect(list.length).toBeLessThan(100);
      const created = list.filter((p) => /^w\d-\d$/.test(p.name)).map((p) => p.name);
      expect(created.sort()).toEqual(Array.from({ length: 8 }, (_, k) => `${w}-${k}`));
      if (i % 2 === 0) expect(list).toHaveLength(8);
      const journal = mock.session(w).requests();
      expect(journal).toHaveLength(9);
      expect(journal.every((e) => e.session === w)).toBe(true);
    }
    expect(mock.requests()).toEqual([]);
  });
});

describe('concurrency at a window edge', () => {
  it('never lets more requests through in one window than the plan allows', async () => {
    // No bans, so the second window is not spoiled by the first one's refusals.
    const file = writeScenario('edge.yaml', ['description: small quota, no bans', 'plans:', '  free: { perMinute: 20 }', 'ban:', '  after: 0']);
    // Real time ticks 1 ms on every reading, so a burst sent 40 ms before a minute ends straddles it.
    let ms = T0 + 59_960;
    const mock = await startWithTime({ ms, now: () => ms++ }, { scenario: file });
    const answers = await Promise.all(
      Array.from({ length: 120 }, () =>
        fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } }).then((r) => ({
          status: r.status,
          reset: r.headers.get('x-ratelimit-reset'),
        })),
      ),
    );
    const perWindow = new Map<string, number>();
    for (const a of answers) if (a.status === 200) perWindow.set(String(a.reset), (perWindow.get(String(a.reset)) ?? 0) + 1);
    expect([...perWindow.keys()].sort()).toEqual([String(T0 / 1000 + 60), String(T0 / 1000 + 120)]);
    for (const count of perWindow.values()) expect(count).toBeLessThanOrEqual(20);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(40);
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
  });
});
