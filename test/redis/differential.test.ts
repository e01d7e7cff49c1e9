// The same answers as one in-memory mock: generated sequences of API requests, admin calls, looks
// at sessions that do not exist, clock moves (on frozen clocks), scenario switches and the
// bounds (long paths, full journals, ids past 2^53 - 1, evicted sessions) go to one in-memory
// engine and, alternately, to two instances sharing one real Redis. Statuses, bodies, headers,
// faults, delays, admin answers and journals must be identical. Thousands of sequences run on the
// same two instances, with the sessions' keys in Redis removed between them.
import { comparableJournal } from '../property/snapshot-history.js';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import { memoryAdmin, type AdminState, type ApiHandler } from '../../src/core/state/backend.js';
import type { CoreRequest, CoreResponse } from '../../src/core/types.js';
import type { JournalEntry } from '../../src/core/state/journal.js';
import { prepareDefaults } from '../../src/files/defaults-data.js';
import { ScenarioCatalogue } from '../../src/files/scenario-catalogue.js';
import { openSharedState, type SharedState } from '../../src/state-redis/index.js';
import { sessionKey } from '../../src/state-redis/keys.js';
import { Pipeline } from '../../src/core/pipeline/pipeline.js';
import { T0 } from '../support/mock.js';
import { TestRedis, redisAvailable } from '../support/redis.js';
import { at } from '../support/checked.js';

const run = redisAvailable();

/** The longest id there is, all of it ':'-separated parts that read like another session's key suffixes. */
const LONGEST = `${'a:'.repeat(63)}jp`;
/** Ids that once reached other sessions' keys in Redis (`default:jp` named the default session's pending set, unencoded, when it was a key of its own). */
const SESSIONS = ['default', 'w1', 'default:jp', LONGEST] as const;
/** Small enough that sequences evict sessions. */
const MAX_SESSIONS = 2;
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
  'near-max-id',
  'removed-steps',
  'declared',
  'windows',
  'windows',
  'windows-forced',
  'windows-usage',
];
const FIXTURES = ['forced-429', 'keyed-forever', 'near-max-id', 'frozen-start', 'removed-steps', 'declared', 'windows', 'windows-forced', 'windows-usage'].map(
  (name) => fileURLToPath(new URL(`./fixtures/${name}.yaml`, import.meta.url)),
);
const KEYS = ['demo-free', 'demo-pro', 'nobody', ''];

type Command =
  | { kind: 'api'; via: number; session: string; key: string; method: string; path: string; query: string; body?: string; times: number; beta: boolean }
  | { kind: 'details'; via: number; session: string; on: boolean }
  | { kind: 'advance'; via: number; session: string; by: string }
  | { kind: 'reset'; via: number; session: string }
  | { kind: 'scenario'; via: number; session: string; name: string }
  | { kind: 'journal'; via: number; session: string }
  | { kind: 'keys'; via: number; session: string }
  | { kind: 'look'; via: number; session: string; what: 'clock' | 'requests' | 'journal' | 'keys' | 'scenario' }
  | { kind: 'sessions'; via: number };

const session = fc.constantFrom<string>('default', 'default', 'default', 'default', 'w1', 'default:jp', LONGEST, 'default:p:sold', 'bad session!');
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
    path: fc.constantFrom('/v1/pets/1', '/v1/pets/50', '/v1/pets/51', '/v1/pets/53', '/v1/pets/999', '/v1/pets/abc', '/v1/pets/9007199254740990'),
    query: fc.constant(''),
  }),
  // Past what a journal entry keeps: cut to 256 characters and marked truncated in both homes.
  fc.record({
    method: fc.constant('GET'),
    path: fc.constantFrom(`/v1/pets/${'7'.repeat(300)}`, `/v1/${'x'.repeat(4000)}`),
    query: fc.constantFrom('', `limit=2&q=${'y'.repeat(600)}`),
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
      `{"name":"${'Z'.repeat(3000)}","categoryId":4}`,
    ),
  }),
  fc.record({
    method: fc.constantFrom('DELETE', 'OPTIONS', 'HEAD'),
    path: fc.constantFrom('/v1/pets', '/v1/nope', '/v1/openapi.json'),
    query: fc.constant(''),
  }),
  // Declared operations where the scenario "declared" runs; 501 and 405 elsewhere.
  fc.record({
    method: fc.constantFrom('GET', 'GET', 'PATCH', 'POST', 'HEAD'),
    path: fc.constantFrom('/v1/store/orders', '/v1/pets/1', '/v1/pets/77'),
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
  {
    // Looking at a session that does not exist must neither create it nor evict another.
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('look' as const),
      via,
      session: fc.constantFrom('look-a', 'default:j', 'w1', LONGEST),
      what: fc.constantFrom('clock' as const, 'requests' as const, 'journal' as const, 'keys' as const, 'scenario' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sessions' as const), via }) },
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

/** What must be equal: the answer without the core's wall time (an eviction is dated in real time). */
function comparable(r: CoreResponse): unknown {
  const headers = { ...r.headers };
  if (headers['X-Mock-Session-Evicted'] !== undefined) headers['X-Mock-Session-Evicted'] = 'present';
  return { status: r.status, headers, body: r.body, fault: r.fault, delayMs: r.delayMs };
}

/**
 * Journal entries without what wall time decides: the core's duration, the real time beside a
 * virtual clock, the arrival and its wait, an eviction's date; the connection number; and key ids
 * renamed by first appearance (each home salts them with its own salt).
 */
function withoutDuration(entries: JournalEntry[]): unknown[] {
  return comparableJournal(entries).map(({ realAt: _real, connection: _connection, ...rest }: Partial<JournalEntry>) => {
    const headers = rest.details?.response.headers;
    if (headers?.['x-mock-session-evicted'] === undefined && headers?.['X-Mock-Session-Evicted'] === undefined) return rest;
    const shown = { ...headers };
    for (const name of ['x-mock-session-evicted', 'X-Mock-Session-Evicted']) if (shown[name] !== undefined) shown[name] = 'present';
    return { ...rest, details: { ...rest.details, response: { ...rest.details?.response, headers: shown } } };
  });
}

/** One side of the comparison: engines to send to (one, or two alternating) and their admin states. */
interface Side {
  engines: ApiHandler[];
  admins: AdminState[];
}

async function apply(side: Side, c: Command): Promise<unknown> {
  const i = c.via % side.engines.length;
  const admin = at(side.admins, i);
  const id = 'session' in c && c.session !== 'default' ? c.session : undefined;
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
    case 'keys': {
      // Each home salts key ids with its own salt: which keys share an id is compared.
      const names = new Map<string, string>();
      const nameOf = (keyId: string): string => names.get(keyId) ?? names.set(keyId, `key-${names.size + 1}`).get(keyId)!;
      return (await admin.keys(id)).map((k) => ({ ...k, keyId: nameOf(k.keyId) }));
    }
    case 'look':
      switch (c.what) {
        case 'clock':
          return (await admin.clock(c.session)).frozen;
        case 'requests':
          return withoutDuration(await admin.requests(c.session, true));
        case 'journal':
          return admin.journal(c.session);
        case 'keys':
          return (await admin.keys(c.session)).map((k) => [k.key, k.remaining, k.bannedUntil]);
        case 'scenario':
          return (await admin.scenario(c.session)).name;
      }
      return undefined;
    case 'sessions':
      // Which sessions exist, in which order, with how many requests: last use and clocks are real time.
      return (await admin.sessions()).map((s) => [s.id, s.scenario, s.requests]);
  }
}

/** The deployment's own record, which emptying the shared state between sequences keeps. */
const DEPLOYMENT_KEYS = new Set(['{diff}:deploy', '{diff}:replicas', '{diff}:init:start']);

describe.skipIf(!run)('a shared state answers as one in-memory mock', () => {
  let redis: TestRedis;
  let shared: Side;
  let states: SharedState[] = [];
  let flusher: Redis;
  const memoryCatalogue = catalogue();

  function catalogue(): ScenarioCatalogue {
    const c = new ScenarioCatalogue(prepareDefaults({}));
    // Loaded once by path, the test's own scenarios can then be switched to by name, as over HTTP.
    for (const file of FIXTURES) c.load(file);
    return c;
  }

  beforeAll(async () => {
    redis = await TestRedis.start();
    const prefix = 'diff';
    states = [
      await openSharedState({ url: redis.url, prefix, scenarios: catalogue(), startScenario: 'frozen-start', maxSessions: MAX_SESSIONS }),
      await openSharedState({ url: redis.url, prefix, scenarios: catalogue(), startScenario: 'frozen-start', maxSessions: MAX_SESSIONS }),
    ];
    // As startMock does once its server listens: each replica joins, and learns the deployment's salt of key ids.
    for (const s of states) await s.join();
    shared = { engines: states.map((s) => new Pipeline(s.port)), admins: states.map((s) => s.admin) };
    flusher = new Redis(redis.url);
  });
  afterAll(async () => {
    flusher?.disconnect();
    for (const s of states) await s.close();
    await redis?.stop();
  });

  /**
   * A fresh in-memory mock, and the shared one emptied of its sessions: the deployment's record
   * stays, since its replicas never found a world again on their own (a Redis emptied under them
   * is a lost deployment). Every session starts frozen at T0 (the start scenario), made anew after
   * an eviction too.
   */
  async function sides(): Promise<[Side, Side]> {
    for (const s of states) await s.flush();
    const drop = (await flusher.keys('*')).filter((k) => !DEPLOYMENT_KEYS.has(k));
    if (drop.length > 0) await flusher.del(...drop);
    const engine = new MockEngine({ settings: memoryCatalogue.settings('frozen-start'), maxSessions: MAX_SESSIONS });
    const memory: Side = { engines: [engine], admins: [memoryAdmin(engine.sessions, memoryCatalogue)] };
    return [memory, shared];
  }

  async function same(start: string, commands: Command[]): Promise<void> {
    const [memory, other] = await sides();
    for (const c of [{ kind: 'scenario' as const, via: 0, session: 'default', name: start }, ...commands]) {
      const expected = await apply(memory, c);
      const actual = await apply(other, c);
      expect({ command: c, answer: actual }).toEqual({ command: c, answer: expected });
    }
    for (const s of SESSIONS) {
      const id = s === 'default' ? undefined : s;
      expect(withoutDuration(await at(other.admins, 1).requests(id, true))).toEqual(withoutDuration(await at(memory.admins, 0).requests(id, true)));
    }
  }

  it('identical statuses, bodies, headers, admin answers and journals for 1,000 generated sequences', async () => {
    // Each run starts the default session on a scenario, so steps, chaos, bans and latency all come up.
    await fc.assert(fc.asyncProperty(fc.constantFrom(...SCENARIOS), fc.array(command, { minLength: 2, maxLength: 8 }), same), { numRuns: 1000 });
  }, 180_000);

  it('usage preset in the second, minute, hour and day answers alike, and is in force (windows-usage)', async () => {
    const [memory, other] = await sides();
    const api = (key: string, times = 1): Command => ({
      kind: 'api',
      via: 1,
      session: 'w1',
      key,
      method: 'GET',
      path: '/v1/pets',
      query: 'limit=1',
      times,
      beta: false,
    });
    const commands: Command[] = [
      { kind: 'scenario', via: 0, session: 'w1', name: 'windows-usage' },
      api('demo-pro'),
      api('demo-free', 3),
      { kind: 'advance', via: 0, session: 'w1', by: '1s' },
      api('demo-free', 2),
      { kind: 'keys', via: 1, session: 'w1' },
      { kind: 'advance', via: 1, session: 'w1', by: '1h' },
      api('demo-pro', 2),
      api('demo-free'),
      { kind: 'reset', via: 0, session: 'w1' },
      api('demo-pro'),
      { kind: 'journal', via: 1, session: 'w1' },
    ];
    const answers: unknown[] = [];
    for (const c of commands) {
      const expected = await apply(memory, c);
      expect({ command: c, answer: await apply(other, c) }).toEqual({ command: c, answer: expected });
      answers.push(expected);
    }
    const hourFull = { status: 429, headers: expect.objectContaining({ 'Retry-After': '1790', 'X-RateLimit-Limit': '4', 'X-RateLimit-Remaining': '0' }) };
    // demo-pro's hour is full from the start; demo-free has 1 of its second and 2 of its hour left.
    expect(answers[1]).toEqual([expect.objectContaining(hourFull)]);
    expect((answers[2] as { status: number }[]).map((a) => a.status)).toEqual([200, 429, 429]);
    expect((answers[4] as { status: number }[]).map((a) => a.status)).toEqual([200, 429]);
    expect(answers[4]).toEqual([expect.anything(), expect.objectContaining({ headers: expect.objectContaining({ 'X-RateLimit-Limit': '9' }) })]);
    expect((answers[7] as { status: number }[]).map((a) => a.status)).toEqual([200, 429]);
    // After a reset the preset is back: the hour is full again.
    expect(answers[10]).toEqual([expect.objectContaining(hourFull)]);
  });

  it('a batch in which one decision fails inside Redis: the others answer as in memory without it', async () => {
    const [memory, other] = await sides();
    // A session whose hash is not a hash: every command on it answers WRONGTYPE.
    await flusher.set(sessionKey('{diff}', 'broken'), 'not a hash');
    const commands: Extract<Command, { kind: 'api' }>[] = [];
    const requests = [
      { method: 'POST', path: '/v1/pets', query: '', body: '{"name":"Rex","categoryId":2,"status":"sold"}' },
      { method: 'GET', path: '/v1/pets', query: 'status=sold&limit=21' },
      { method: 'GET', path: '/v1/pets/51', query: '' },
      { method: 'GET', path: '/v1/pets', query: 'limit=100' },
    ];
    for (let n = 0; n < 40; n++) {
      // Two sessions besides the default, as many as the LRU holds: none is dropped mid-batch.
      for (const sid of ['broken', 'default', 'default:jp', LONGEST]) {
        const r = requests[n % requests.length] as (typeof requests)[number];
        commands.push({ kind: 'api', via: 0, session: sid, key: n % 5 === 0 ? '' : 'demo-free', times: 1, beta: false, ...r });
      }
    }
    // One request of each session first, alone: the instance then knows each session's settings
    // (an earlier sequence may have left another guess), so no decision of the batch is retried
    // on its own, after the others of its session.
    const engine = at(other.engines, 0);
    for (const sid of ['default', 'default:jp', LONGEST]) {
      const c: Extract<Command, { kind: 'api' }> = {
        kind: 'api',
        via: 0,
        session: sid,
        key: 'demo-free',
        times: 1,
        beta: false,
        method: 'GET',
        path: '/v1/pets',
        query: 'limit=1',
      };
      expect(comparable(await engine.handle(coreRequest(c)))).toEqual(comparable(await at(memory.engines, 0).handle(coreRequest(c))));
    }
    // All at once into one instance: they are decided in batches, the broken session's among the others'.
    const actual = await Promise.all(commands.map((c) => engine.handle(coreRequest(c))));
    try {
      for (const [i, c] of commands.entries()) {
        const answer = actual[i] as CoreResponse;
        if (c.session === 'broken') {
          // Refused before any state where no key was sent (401), else the 503 of its own failure.
          expect([401, 503]).toContain(answer.status);
          continue;
        }
        expect({ command: c, answer: comparable(answer) }).toEqual({ command: c, answer: comparable(await at(memory.engines, 0).handle(coreRequest(c))) });
      }
      expect(actual.filter((r, i) => commands[i]?.session === 'broken' && r.status === 503).length).toBeGreaterThan(20);
    } finally {
      await flusher.del(sessionKey('{diff}', 'broken'));
    }
  });

  it('identical answers over long sequences, where bans, evictions and full journals build up', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...SCENARIOS), fc.array(command, { minLength: 40, maxLength: 120 }), same), { numRuns: 30 });
  }, 120_000);
});
