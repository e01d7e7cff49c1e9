// Scenarios sent over HTTP: PUT /__admin/scenario {"scenario": {…}} applies an object for the
// selected session, checked by the scenario schema, each mistake named by JSON pointer; GET
// /__admin/scenario returns the active definition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { adminCall, type ErrorJson } from '../support/admin.js';
import { call, post } from '../support/mock.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
});

const OUTAGE = {
  name: 'checkout-outage',
  description: 'The second create fails with 503.',
  steps: [
    { match: { operation: 'createPet' }, answer: 'normal' },
    { match: { operation: 'createPet' }, answer: { status: 503, retryAfter: 7 } },
  ],
};

const putScenario = (body: unknown, session?: string) =>
  adminCall<ErrorJson & { details?: { field: string; message: string }[]; name?: string }>(mock.origin, 'scenario', {
    method: 'PUT',
    body: JSON.stringify(body),
    session,
  });
const create = (session: string) =>
  call(mock, '/v1/pets', { ...post({ name: 'Rex', categoryId: 1 }), headers: { 'content-type': 'application/json', 'x-mock-session': session } });

describe('PUT /__admin/scenario {"scenario": …}', () => {
  it('applies the object to the selected session only; GET tells its name and definition; a reset starts it again', async () => {
    const res = await putScenario({ scenario: OUTAGE }, 'obj');
    expect(res.status).toBe(200);
    expect(res.json).toEqual(expect.objectContaining({ name: 'checkout-outage', session: 'obj' }));
    expect([(await create('obj')).status, (await create('obj')).status]).toEqual([201, 503]);
    expect((await create('other')).status).toBe(201);
    const got = await adminCall<{ name: string; description: string; definition: unknown }>(mock.origin, 'scenario', { session: 'obj' });
    expect(got.json).toEqual(expect.objectContaining({ name: 'checkout-outage', description: OUTAGE.description, definition: OUTAGE }));
    await adminCall(mock.origin, 'reset', { method: 'POST', session: 'obj' });
    expect([(await create('obj')).status, (await create('obj')).status]).toEqual([201, 503]);
  });

  it('runs an object without a name as "custom"', async () => {
    const res = await putScenario({ scenario: { description: 'Nothing but a frozen clock.', clock: { start: '2030-01-01T00:00:00Z', frozen: true } } }, 'anon');
    expect(res.json).toEqual(expect.objectContaining({ name: 'custom', clock: { now: '2030-01-01T00:00:00.000Z', frozen: true } }));
  });

  it.each<[string, unknown, { field: string; message: RegExp }[]]>([
    [
      'each wrong field, by JSON pointer',
      { description: 'x', typo: 1, steps: [{ answer: { status: 418 } }, { times: 0, answer: 'normal' }] },
      [
        { field: '/typo', message: /unknown key "typo"/ },
        { field: '/steps/0/answer/status', message: /418/ },
        { field: '/steps/1/times', message: /steps\[1\]\.times/ },
      ],
    ],
    ['a missing description', { name: 'x' }, [{ field: '/description', message: /needs the key "description"/ }]],
    ['a rule only the server knows', { description: 'x', usage: [{ key: 'nobody', minute: 1 }] }, [{ field: '/usage/0/key', message: /does not have/ }]],
    [
      'a usage line for a window the key does not have',
      { description: 'x', usage: [{ key: 'demo-free', hour: 'full' }] },
      [{ field: '/usage/0/hour', message: /key "demo-free", which has no hour window/ }],
    ],
    [
      'a usage line for a window of no unit',
      { description: 'x', usage: [{ key: 'demo-free', week: 1 }] },
      [{ field: '/usage/0/week', message: /unknown key "week"/ }],
    ],
    ['a file path', { description: 'x', data: { fixtures: 'pets.json' } }, [{ field: '/data/fixtures', message: /reads no files/ }]],
  ])('refuses %s, and the session keeps its scenario', async (_what, scenario, details) => {
    const res = await putScenario({ scenario }, 'wrong');
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('scenario_invalid');
    expect(res.json.details).toEqual(details.map((d) => ({ field: d.field, message: expect.stringMatching(d.message) })));
    expect(res.json.message).toContain(`not valid at ${details[0]?.field}`);
    expect((await adminCall<{ name: string }>(mock.origin, 'scenario', { session: 'wrong' })).json.name).toBe('default');
  });

  it.each([[{ name: 'ban', scenario: OUTAGE }], [{ scenario: 'ban' }], [{ scenario: [] }], [{ scenario: OUTAGE, extra: 1 }]])(
    'refuses the body %j',
    async (body) => {
      const res = await putScenario(body);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('admin_invalid_request');
      expect(res.json.message).toMatch(/\{"name": "<scenario>"\}.*\{"scenario": \{…what a scenario file holds…\}\}/);
    },
  );

  it('GET /__admin/scenario returns the definition of a shipped scenario, and one for the command line’s settings', async () => {
    await adminCall(mock.origin, 'scenario', { method: 'PUT', body: { name: 'create-fails-third' }, session: 'shipped' });
    const shipped = await adminCall<{ definition: { steps: unknown[] } }>(mock.origin, 'scenario', { session: 'shipped' });
    expect(shipped.json.definition.steps).toHaveLength(2);
    expect((await adminCall<{ definition: unknown }>(mock.origin, 'scenario')).json.definition).toEqual({
      description: "The command line's settings, with no scenario.",
    });
  });
});

describe('a usage line of a scenario object fills any window of the key', () => {
  // 12:30:10 UTC: the second ends at 12:30:11, the hour at 13:00 (1790 s later).
  const START = Date.UTC(2030, 0, 1, 12, 30, 10);
  const scenario = (usage: Record<string, unknown>) => ({
    description: 'A key with a window of each unit, part of it used.',
    clock: { start: new Date(START).toISOString(), frozen: true },
    keys: [{ key: 'burst', plan: 'enterprise', limits: ['5/s', '20/m', '100/h', '1000/d'] }],
    usage: [{ key: 'burst', ...usage }],
  });
  const get = async (session: string) => {
    const r = await call(mock, '/v1/pets?limit=1', { key: 'burst', headers: { 'x-mock-session': session } });
    return {
      status: r.status,
      limit: r.headers.get('x-ratelimit-limit'),
      remaining: r.headers.get('x-ratelimit-remaining'),
      reset: r.headers.get('x-ratelimit-reset'),
      retryAfter: r.headers.get('retry-after'),
    };
  };
  const reset = (instant: number) => String(instant / 1000);

  it.each([
    ['second', 'full', { limit: '5', reset: reset(START + 1_000), retryAfter: '1' }, 1_000],
    ['hour', 'full', { limit: '100', reset: reset(Date.UTC(2030, 0, 1, 13)), retryAfter: '1790' }, 1_790_000],
  ])('%s: %s answers 429 with Retry-After to the end of that window, and a reset presets it again', async (name, used, expected, waitMs) => {
    const session = `usage-${name}`;
    expect((await putScenario({ scenario: scenario({ [name]: used }) }, session)).status).toBe(200);
    expect(await get(session)).toEqual({ status: 429, remaining: '0', ...expected });
    await adminCall(mock.origin, 'clock', { body: { advance: `${waitMs}ms` }, session });
    expect((await get(session)).status).toBe(200);
    await adminCall(mock.origin, 'reset', { method: 'POST', session });
    expect((await get(session)).status).toBe(429);
  });

  it('a count leaves the rest of the hour, reported as the window with the fewest left', async () => {
    expect((await putScenario({ scenario: scenario({ hour: 98, second: 2 }) }, 'usage-count')).status).toBe(200);
    const hour = { limit: '100', reset: reset(Date.UTC(2030, 0, 1, 13)) };
    expect([await get('usage-count'), await get('usage-count'), await get('usage-count')]).toEqual([
      { status: 200, remaining: '1', retryAfter: null, ...hour },
      { status: 200, remaining: '0', retryAfter: null, ...hour },
      { status: 429, remaining: '0', retryAfter: '1790', ...hour },
    ]);
  });
});
