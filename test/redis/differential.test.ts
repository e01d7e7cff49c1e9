// The same answers as one in-memory mock: generated sequences of API requests, admin calls and
// clock moves (on frozen clocks) go to one in-memory engine and, alternately, to two instances
// sharing one real Redis. Statuses, bodies, headers, faults, delays, admin answers and journals
// must be identical.
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import { memoryAdmin, type AdminState, type ApiCore } from '../../src/core/state/backend.js';
import type { CoreRequest, CoreResponse } from '../../src/core/types.js';
import { prepareHost } from '../../src/files/host-data.js';
import { ScenarioCatalogue } from '../../src/files/scenario-catalogue.js';
import { openSharedState, type SharedState } from '../../src/state-redis/index.js';
import { T0 } from '../support/mock.js';
import { TestRedis, redisAvailable } from '../support/redis.js';
import { at } from '../support/checked.js';

const run = redisAvailable();

const SESSIONS = ['default', 'w1', 'w2'] as const;
const SCENARIOS = [
  'default',
  'ban',
  'create-fails-third',
  'empty-store',
  'flaky',
  'removal-eve',
  'removed',
  'revoked-key',
  'slow',
  'rate-limit-minute',
  'forced-429',
  'keyed-forever',
];
const FIXTURES = ['forced-429', 'keyed-forever'].map((name) => fileURLToPath(new URL(`./fixtures/${name}.yaml`, import.meta.url)));
const KEYS = ['demo-free', 'demo-pro', 'nobody', ''];

type Command =
  | { kind: 'api'; via: number; session: string; key: string; method: string; path: string; query: string; body?: string; times: number; beta: boolean }
  | { kind: 'details'; via: number; session: string; on: boolean }
  | { kind: 'advance'; via: number; session: string; by: string }
  | { kind: 'reset'; via: number; session: string }
  | { kind: 'scenario'; via: number; session: string; name: string }
  | { kind: 'journal'; via: number; session: string }
  | { kind: 'keys'; via: number; session: string };

const session = fc.constantFrom<string>('default', 'default', 'default', 'default', 'w1', 'w2', 'bad session!');
const via = fc.integer({ min: 0, max: 1 });
const apiRequest = fc.oneof(
  fc.record({
    method: fc.constant('GET'),
    path: fc.constant('/v1/pets'),
    query: fc.constantFrom(
      '',
      'limit=1',
      'limit=100',
      'limit=160',
      'status=sold&limit=19',
      'status=sold&limit=19',
      'status=sold&limit=21',
      'status=pending&limit=15',
      'limit=0',
      'limit=x',
    ),
  }),
  fc.record({
    method: fc.constant('GET'),
    path: fc.constantFrom('/v1/pets/1', '/v1/pets/50', '/v1/pets/51', '/v1/pets/53', '/v1/pets/999', '/v1/pets/abc'),
    query: fc.constant(''),
  }),
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/v1/pets'),
    query: fc.constant(''),
    body: fc.constantFrom(
      '{"name":"Rex","categoryId":2,"status":"sold"}',
      '{"name":"Max","categoryId":5,"status":"sold"}',
      '{"name":"Ida","categoryId":9007199254740993}',
      '{"name":"Pat","categoryId":3,"status":"pending"}',
      '{"name":1}',
      'not json',
    ),
  }),
  fc.record({
    method: fc.constantFrom('DELETE', 'OPTIONS', 'HEAD'),
    path: fc.constantFrom('/v1/pets', '/v1/nope', '/v1/openapi.json'),
    query: fc.constant(''),
  }),
);
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .record({
        kind: fc.constant('api' as const),
        via,
        session,
        key: fc.constantFrom(...KEYS, 'demo-free', 'demo-free', 'demo-free'),
        request: apiRequest,
        times: fc.constantFrom(1, 1, 1, 1, 1, 8),
        beta: fc.boolean(),
      })
      .map(({ request, ...rest }) => ({ ...rest, ...request })),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      via,
      session: fc.constantFrom(...SESSIONS),
      by: fc.constantFrom('1s', '2s', '3s', '30s', '61s', '1h', '1d', '400d'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), via, session: fc.constantFrom(...SESSIONS) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('scenario' as const), via, session: fc.constantFrom(...SESSIONS), name: fc.constantFrom(...SCENARIOS) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('journal' as const), via, session: fc.constantFrom(...SESSIONS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('keys' as const), via, session: fc.constantFrom(...SESSIONS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('details' as const), via, session: fc.constantFrom(...SESSIONS), on: fc.boolean() }) },
);

function coreRequest(c: Extract<Command, { kind: 'api' }>): CoreRequest {
  const headers: Record<string, string> = {};
  if (c.key) headers.authorization = `Bearer ${c.key}`;
  if (c.session !== 'default') headers['x-mock-session'] = c.session;
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  if (c.beta) headers['x-client'] = 'beta';
  if (c.method === 'OPTIONS' && c.path === '/v1/pets') {
    headers.origin = 'http://app.test';
    headers['access-control-request-method'] = 'POST';
  }
  return {
    method: c.method,
    path: c.path,
    query: c.query,
    headers,
    body: c.body === undefined ? null : new TextEncoder().encode(c.body),
    remoteAddress: '10.0.0.7',
  };
}

/** What must be equal: the answer without the core's wall time. */
function comparable(r: CoreResponse): unknown {
  return { status: r.status, headers: r.headers, body: r.body, fault: r.fault, delayMs: r.delayMs };
}

/** Journal entries without what wall time decides: the core's duration and the real time beside a virtual clock. */
function withoutDuration(entries: { durationMs?: number; realAt?: string }[]): unknown[] {
  return entries.map(({ durationMs: _duration, realAt: _real, ...rest }) => rest);
}

/** One side of the comparison: engines to send to (one, or two alternating) and their admin states. */
interface Side {
  engines: ApiCore[];
  admins: AdminState[];
}

async function apply(side: Side, c: Command): Promise<unknown> {
  const i = c.via % side.engines.length;
  const admin = at(side.admins, i);
  const id = c.session === 'default' ? undefined : c.session;
  const settle = async (): Promise<void> => {
    // Reset and scenarios restart the clock with real time, which differs between the two sides.
    if (!(await admin.clock(id)).frozen) await admin.changeClock(id, { frozen: true, set: T0 });
  };
  switch (c.kind) {
    case 'api': {
      // A burst (times 8) goes through limits into bans; its requests alternate between instances too.
      const answers: unknown[] = [];
      for (let n = 0; n < c.times; n++) answers.push(comparable(await at(side.engines, (i + n) % side.engines.length).handle(coreRequest(c))));
      return answers;
    }
    case 'advance':
      return admin.changeClock(id, {
        advance: c.by === '400d' ? 400 * 86_400_000 : Number.parseInt(c.by, 10) * { s: 1000, h: 3_600_000, d: 86_400_000 }[c.by.slice(-1) as 's' | 'h' | 'd'],
      });
    case 'reset': {
      const done = await admin.reset(id);
      await settle();
      return { ...done, clock: await admin.clock(id) };
    }
    case 'scenario': {
      const done = await admin.useScenario(c.name, id);
      await settle();
      return { ...done, clock: await admin.clock(id) };
    }
    case 'journal':
      return { entries: withoutDuration(await admin.requests(id, true)), info: await admin.journal(id) };
    case 'details':
      return admin.recordDetails(id, c.on);
    case 'keys':
      return admin.keys(id);
  }
}

describe.skipIf(!run)('a shared state answers as one in-memory mock', () => {
  let redis: TestRedis;
  const opened: SharedState[] = [];
  let deployments = 0;

  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterAll(async () => {
    for (const s of opened) await s.close();
    await redis?.stop();
  });

  async function sides(): Promise<[Side, Side]> {
    const catalogue = (): ScenarioCatalogue => {
      const c = new ScenarioCatalogue(prepareHost({}));
      // Loaded once by path, the test's own scenarios can then be switched to by name, as over HTTP.
      for (const file of FIXTURES) c.load(file);
      return c;
    };
    const scenarios = catalogue();
    const engine = new MockEngine({ settings: scenarios.startSettings() });
    const memory: Side = { engines: [engine], admins: [memoryAdmin(engine.sessions, scenarios)] };
    const prefix = `diff${++deployments}`;
    const two = [
      await openSharedState({ url: redis.url, prefix, scenarios: catalogue() }),
      await openSharedState({ url: redis.url, prefix, scenarios: catalogue() }),
    ];
    opened.push(...two);
    const shared: Side = { engines: two.map((s) => s.engine), admins: two.map((s) => s.admin) };
    for (const side of [memory, shared]) {
      for (const s of SESSIONS) await at(side.admins, 0).changeClock(s === 'default' ? undefined : s, { frozen: true, set: T0 });
    }
    return [memory, shared];
  }

  it('identical statuses, bodies, headers, admin answers and journals for generated sequences', async () => {
    await fc.assert(
      // Each run starts the default session on a scenario, so steps, chaos, bans and latency all come up.
      fc.asyncProperty(fc.constantFrom(...SCENARIOS), fc.array(command, { minLength: 10, maxLength: 80 }), async (start, commands) => {
        const [memory, shared] = await sides();
        for (const c of [{ kind: 'scenario' as const, via: 0, session: 'default', name: start }, ...commands]) {
          const expected = await apply(memory, c);
          const actual = await apply(shared, c);
          expect({ command: c, answer: actual }).toEqual({ command: c, answer: expected });
        }
        for (const s of SESSIONS) {
          const id = s === 'default' ? undefined : s;
          expect(withoutDuration(await at(shared.admins, 1).requests(id, true))).toEqual(withoutDuration(await at(memory.admins, 0).requests(id, true)));
        }
      }),
      { numRuns: 40 },
    );
  });
});
