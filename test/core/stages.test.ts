import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/core/input/body.js';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import { STAGES } from '../../src/core/pipeline/stages.js';
import type { StageName } from '../../src/core/check-order.js';
import { parseKeySpec } from '../../src/core/state/plans.js';
import { compileScenario } from '../../src/core/scenarios/scenario-compiler.js';
import { buildBaseData, defaultSettings } from '../../src/core/state/session-settings.js';
import type { CoreRequest } from '../../src/core/types.js';

/** A stage a request can be made to fail, and what its failure answers, in the documented order. */
type Failing = Exclude<StageName, 'preflight' | 'scenario' | 'operation'>;

const ANSWERS: Record<Failing, [number, string]> = {
  route: [405, 'method_not_allowed'],
  removal: [410, 'endpoint_removed'],
  auth: [401, 'missing_api_key'],
  limit: [429, 'rate_limited'],
  'media-type': [415, 'unsupported_media_type'],
  'body-size': [413, 'payload_too_large'],
  validation: [400, ''],
};

/** The operations, the stages each can fail at, and its answer when none fails. */
const OPERATIONS = {
  create: { stages: ['route', 'auth', 'limit', 'media-type', 'body-size', 'validation'], ok: 201 },
  get: { stages: ['route', 'removal', 'auth', 'limit', 'validation'], ok: 200 },
  list: { stages: ['route', 'auth', 'limit', 'validation'], ok: 200 },
} as const satisfies Record<string, { stages: readonly Failing[]; ok: number }>;
type Operation = keyof typeof OPERATIONS;

/** Every non-empty set of an operation's stages, as the request failing at each of them. */
function combinations(operation: Operation): [string, Operation, Failing[]][] {
  const stages = OPERATIONS[operation].stages;
  const cases: [string, Operation, Failing[]][] = [];
  for (let mask = 1; mask < 1 << stages.length; mask++) {
    const failing = stages.filter((_, i) => (mask & (1 << i)) !== 0);
    cases.push([`${operation} failing at ${failing.join(' + ')}`, operation, failing]);
  }
  return cases;
}

/** The request of an operation failing at the given stages; `head` leaves the body out and declares its length. */
function request(operation: Operation, failing: readonly Failing[], head = false): CoreRequest {
  const fails = (stage: Failing): boolean => failing.includes(stage);
  const headers: Record<string, string> = {};
  // `tiny` has 1 request a minute, used up before each case that fails at the limit.
  if (!fails('auth')) headers.authorization = `Bearer ${fails('limit') ? 'tiny' : 'demo-free'}`;
  if (operation === 'create') {
    const body = new TextEncoder().encode(fails('validation') ? '{"name": 3}' : '{"name": "Rex", "categoryId": 1}');
    headers['content-type'] = fails('media-type') ? 'text/plain' : 'application/json';
    const tooLarge = fails('body-size');
    headers['content-length'] = String(tooLarge ? MAX_BODY_BYTES + 1 : body.length);
    return {
      method: fails('route') ? 'PUT' : 'POST',
      path: '/v1/pets',
      query: '',
      headers,
      body: head || tooLarge ? undefined : body,
      bodyTooLarge: tooLarge,
      remoteAddress: '127.0.0.1',
    };
  }
  const method = fails('route') ? 'PUT' : 'GET';
  if (operation === 'get') return { method, path: fails('validation') ? '/v1/pets/abc' : '/v1/pets/1', query: '', headers, remoteAddress: '127.0.0.1' };
  return { method, path: '/v1/pets', query: fails('validation') ? 'limit=0' : 'limit=5', headers, remoteAddress: '127.0.0.1' };
}

/** An engine whose `tiny` key is used up for the minute and, when asked, whose clock is past the removal date. */
function engineFor(failing: readonly Failing[], forcing = false): MockEngine {
  const base = buildBaseData({ count: 30 });
  const defaults = defaultSettings(base, [parseKeySpec('tiny:free:1:1000')]);
  // With `forcing`, a scenario answers every create 503 (its step never ends).
  const settings = forcing
    ? compileScenario({ description: 'forcing', steps: [{ match: { operation: 'createPet' }, times: 'forever', answer: { status: 503 } }] }, 'forcing', {
        defaults,
        data: () => base,
      })
    : defaults;
  const engine = new MockEngine({ settings });
  if (failing.includes('limit')) {
    const used = engine.handle({ method: 'GET', path: '/v1/pets', query: '', headers: { authorization: 'Bearer tiny' }, remoteAddress: '127.0.0.1' });
    expect(used.status).toBe(200);
  }
  if (failing.includes('removal')) {
    const state = engine.sessions.defaultSession;
    state.clock.set(state.settings.deprecation.removalAt);
  }
  return engine;
}

/** The first of the failing stages in the documented order (docs/reference.md, "Order of checks"), written here apart from the list. */
function firstFailing(failing: readonly Failing[]): Failing {
  const first = (Object.keys(ANSWERS) as Failing[]).find((stage) => failing.includes(stage));
  if (first === undefined) throw new Error('no failing stage');
  return first;
}

describe('the stages of the order of checks', () => {
  it('are the documented order, and only the last two need the body', () => {
    expect(STAGES.map((s) => s.name)).toEqual([
      'preflight',
      'route',
      'removal',
      'auth',
      'limit',
      'scenario',
      'media-type',
      'body-size',
      'validation',
      'operation',
    ]);
    expect(STAGES.filter((s) => s.needsBody).map((s) => s.name)).toEqual(['validation', 'operation']);
  });

  it.each([...combinations('create'), ...combinations('get'), ...combinations('list')])('the pipeline: %s answers the first', (_what, operation, failing) => {
    const response = engineFor(failing).handle(request(operation, failing));
    const [status, code] = ANSWERS[firstFailing(failing)];
    expect(response.status).toBe(status);
    const body = JSON.parse(response.body ?? '{}') as { code: string; status: number };
    expect(body.status).toBe(status);
    if (code !== '') expect(body.code).toBe(code);
  });

  it.each(combinations('create'))(
    'the pipeline with a scenario forcing every create: %s answers a failure before the scenario stage, else the forced answer',
    (_what, operation, failing) => {
      const first = firstFailing(failing);
      const response = engineFor(failing, true).handle(request(operation, failing));
      // route, auth and the limit come before the scenario's stage; media type, size and validation after it.
      const beforeScenario = STAGES.findIndex((s) => s.name === first) < STAGES.findIndex((s) => s.name === 'scenario');
      expect(beforeScenario).toBe(['route', 'auth', 'limit'].includes(first));
      expect(response.status).toBe(beforeScenario ? ANSWERS[first][0] : 503);
    },
  );

  it('the pipeline with a scenario forcing every create: a create failing nowhere gets the forced answer', () => {
    expect(engineFor([], true).handle(request('create', [])).status).toBe(503);
  });

  it.each(Object.keys(OPERATIONS) as Operation[])('the pipeline: %s failing nowhere runs the operation', (operation) => {
    expect(engineFor([]).handle(request(operation, [])).status).toBe(OPERATIONS[operation].ok);
  });

  it.each(combinations('create'))('before the body: %s', (_what, operation, failing) => {
    const engine = engineFor(failing);
    const first = firstFailing(failing);
    const req = request(operation, failing, true);
    // Every stage before the validation is told from the head; the validation needs the body (100 Continue).
    expect(engine.answeredBeforeBody(req)).toBe(first !== 'validation');
    if (first === 'validation') return;
    const [status, code] = ANSWERS[first];
    const response = engine.handle(req);
    expect(response.status).toBe(status);
    expect(JSON.parse(response.body ?? '{}')).toMatchObject({ code, status });
  });

  it('before the body: a create failing nowhere waits for its body, and counts nothing', () => {
    const engine = engineFor([]);
    expect(engine.answeredBeforeBody(request('create', [], true))).toBe(false);
    expect(engine.sessions.defaultSession.journal.size).toBe(0);
  });
});
