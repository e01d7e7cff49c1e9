import { describe, expect, it } from 'vitest';
import { ScenarioSpecError, compileScenario, type ScenarioSpec } from '../../src/core/scenarios/scenario-compiler.js';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import { SPEC_OPERATIONS, SPEC_TABLE, tableOf } from '../../src/core/pipeline/operations-table.js';
import { auditJournal } from '../../src/core/audit/audit.js';
import { toHar } from '../../src/core/state/har.js';
import { parseKeySpec } from '../../src/core/state/plans.js';
import { defaultSettings } from '../../src/core/state/session-settings.js';
import { BaseData } from '../../src/core/state/base-data.js';
import type { SessionSettings } from '../../src/core/state/session-state.js';
import type { CoreRequest } from '../../src/core/types.js';
import { allowOf, undeclaredMethod } from '../support/undeclared.js';

const base = new BaseData([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
const START = Date.UTC(2030, 0, 1);
/** A method the specification leaves undefined on one animal, which ORDERS declares; and one it declares neither. */
const DECLARED = undeclaredMethod('/v1/pets/{petId}');
const UNDECLARED = undeclaredMethod('/v1/pets/{petId}', DECLARED);

const ORDERS: NonNullable<ScenarioSpec['operations']> = [
  {
    operationId: 'listOrders',
    method: 'GET',
    path: '/v1/store/orders',
    answers: [
      { status: 200, body: [{ id: 1 }], times: 2 },
      { status: 503, body: { code: 'down' }, headers: { 'Retry-After': '3' } },
      { status: 200, body: [] },
    ],
  },
  { operationId: 'declaredPetCall', method: DECLARED, path: '/v1/pets/{id}', answers: [{ status: 204 }] },
  { operationId: 'createOrder', method: 'POST', path: '/v1/store/orders/{orderId}/items', answers: [{ status: 201, body: { ok: true } }] },
];

function compile(spec: Omit<ScenarioSpec, 'description'>): SessionSettings {
  const defaults = defaultSettings(base, [parseKeySpec('tiny:free:2:1000')]);
  return compileScenario({ description: 'test', clock: { start: '2030-01-01T00:00:00Z', frozen: true }, ...spec }, 'test', { defaults, data: () => base });
}

function specError(operations: ScenarioSpec['operations']): ScenarioSpecError {
  try {
    compile({ operations });
  } catch (error) {
    if (error instanceof ScenarioSpecError) return error;
    throw error;
  }
  throw new Error('compiled without an error');
}

function req(
  method: string,
  path: string,
  headers: CoreRequest['headers'] = { authorization: 'Bearer demo-pro' },
  extra: Partial<CoreRequest> = {},
): CoreRequest {
  return { method, path, query: '', headers, remoteAddress: '127.0.0.1', ...extra };
}

function engineWith(operations = ORDERS): MockEngine {
  return new MockEngine({ settings: compile({ operations }), now: () => START });
}

describe('the operations table', () => {
  it("reads the specification's operations from the OpenAPI document", () => {
    expect(SPEC_OPERATIONS.map((o) => `${o.method} ${o.path} ${o.id}`)).toEqual([
      'GET /v1/pets listPets',
      'POST /v1/pets createPet',
      'GET /v1/pets/{petId} getPet',
    ]);
  });

  it.each([
    ['GET', '/v1/pets', { kind: 'operation', operation: 'listPets' }],
    ['HEAD', '/v1/pets', { kind: 'operation', operation: 'listPets' }],
    ['POST', '/v1/pets', { kind: 'operation', operation: 'createPet' }],
    ['GET', '/v1/pets/7', { kind: 'operation', operation: 'getPet', petId: '7' }],
    [DECLARED, '/v1/pets/7', { kind: 'method-not-allowed', allow: allowOf('/v1/pets/7') }],
    ['GET', '/v1/pets/', { kind: 'not-found' }],
    ['GET', '/V1/PETS', { kind: 'not-found' }],
    ['GET', '/v1/store/orders', { kind: 'not-implemented' }],
    ['GET', '/v1/openapi.json', { kind: 'document' }],
  ])("routes %s %s in the specification's table", (method, path, expected) => {
    expect(SPEC_TABLE.route(method, path)).toMatchObject(expected);
  });

  it.each([
    ['GET', '/v1/store/orders', 'declared', 'GET, HEAD, OPTIONS'],
    [DECLARED, '/v1/pets/7', 'declared', allowOf('/v1/pets/7', DECLARED)],
    ['GET', '/v1/pets/7', 'operation', allowOf('/v1/pets/7', DECLARED)],
    [UNDECLARED, '/v1/pets/7', 'method-not-allowed', allowOf('/v1/pets/7', DECLARED)],
    ['POST', '/v1/store/orders/9/items', 'declared', 'POST, OPTIONS'],
    ['GET', '/v1/pets', 'operation', allowOf('/v1/pets')],
  ])('routes %s %s to %s with Allow %s once operations are declared', (method, path, kind, allow) => {
    const table = tableOf(compile({ operations: ORDERS }));
    expect(table.route(method, path)).toMatchObject({ kind, allow });
    expect(table.allowed(path)).toBe(allow);
  });

  it('hands out the same route object for the list on every request', () => {
    expect(SPEC_TABLE.route('GET', '/v1/pets')).toBe(SPEC_TABLE.route('GET', '/v1/pets'));
  });
});

describe('declaring operations in a scenario', () => {
  it.each([
    ['GET /v1/pets', { method: 'GET', path: '/v1/pets' }, 'path', /defined by the specification as listPets/],
    ['POST /v1/pets', { method: 'POST', path: '/v1/pets' }, 'path', /createPet/],
    ['GET /v1/pets/{petId}', { method: 'GET', path: '/v1/pets/{petId}' }, 'path', /getPet/],
    ['GET /v1/pets/{id} (another parameter name)', { method: 'GET', path: '/v1/pets/{id}' }, 'path', /getPet/],
    ['GET /v1/pets/mine (a path the template fits)', { method: 'GET', path: '/v1/pets/mine' }, 'path', /getPet/],
    ['HEAD /v1/pets', { method: 'HEAD', path: '/v1/pets' }, 'method', /HEAD is answered by the mock itself/],
    ['OPTIONS /v1/pets/{petId}', { method: 'OPTIONS', path: '/v1/pets/{petId}' }, 'method', /OPTIONS/],
    ['POST /v1/openapi.json', { method: 'POST', path: '/v1/openapi.json' }, 'path', /OpenAPI document/],
  ])('refuses %s, which the specification defines', (_what, op, field, message) => {
    const error = specError([{ operationId: 'mine', answers: [{ status: 200 }], ...op }]);
    expect(error.path).toEqual(['operations', 0, field]);
    expect(error.message).toMatch(message);
  });

  it.each([
    ['a duplicate operationId', [{ operationId: 'a' }, { operationId: 'a', path: '/v1/b' }], ['operations', 1, 'operationId']],
    ['the id of an operation of the specification', [{ operationId: 'getPet' }], ['operations', 0, 'operationId']],
    [
      'the same method and template twice',
      [
        { operationId: 'a', path: '/v1/x/{a}' },
        { operationId: 'b', path: '/v1/x/{b}' },
      ],
      ['operations', 1, 'path'],
    ],
    ['a body on a 204', [{ operationId: 'a', answers: [{ status: 204, body: {} }] }], ['operations', 0, 'answers', 0, 'body']],
    [
      'a header the mock writes',
      [{ operationId: 'a', answers: [{ status: 200, headers: { 'X-RateLimit-Limit': '1' } }] }],
      ['operations', 0, 'answers', 0, 'headers', 'X-RateLimit-Limit'],
    ],
  ])('refuses %s', (_what, ops, path) => {
    const full = ops.map((o) => ({ method: 'GET', path: '/v1/a', answers: [{ status: 200 }], ...o }));
    expect(specError(full).path).toEqual(path);
  });
});

/** Declared answer headers HTTP does not allow, each refused at its own place when the scenario is read. */
const BAD_HEADERS: [string, string, string][] = [
  ['a name like an object member', 'constructor', 'x'],
  ['__proto__', '__proto__', 'x'],
  ['toString', 'toString', 'x'],
  ['a name that is no token', 'X Bad', 'x'],
  ['an empty name', '', 'x'],
  ['Trailer', 'Trailer', 'Expires'],
  ['Transfer-Encoding', 'Transfer-Encoding', 'chunked'],
  ['Content-Length', 'content-length', '5'],
  ['Connection', 'Connection', 'close'],
  ['Keep-Alive', 'Keep-Alive', 'timeout=5'],
  ['TE', 'TE', 'trailers'],
  ['Upgrade', 'Upgrade', 'websocket'],
  ['Host', 'Host', 'example.com'],
  ['Proxy-Authenticate', 'Proxy-Authenticate', 'Basic'],
  ['Content-Encoding', 'Content-Encoding', 'gzip'],
  ['a value past Latin-1', 'X-Done', 'done ✓'],
  ['a value with CR LF', 'X-Split', 'a\r\nSet-Cookie: b=c'],
  ['a value with a line feed', 'X-Split', 'a\nb'],
  ['a value with NUL', 'X-Nul', 'a\u0000b'],
  ['a value with a control character', 'X-Bell', 'a\u0007b'],
  ['a value with DEL', 'X-Del', 'a\u007fb'],
  ['a value with a space at its end', 'X-Space', 'a '],
];

describe("a declared answer's headers", () => {
  it.each(BAD_HEADERS)('refuses %s at its place', (_what, name, value) => {
    const error = specError([{ operationId: 'a', method: 'GET', path: '/v1/a', answers: [{ status: 200 }, { status: 200, headers: { [name]: value } }] }]);
    expect(error.path).toEqual(['operations', 0, 'answers', 1, 'headers', name]);
  });

  it('takes tokens and field values with tabs, inner spaces and Latin-1, and keeps them without a prototype', () => {
    const headers = { 'X-Note': 'caf\u00e9\tau lait', "X-!#$%&'*+.^_`|~": 'ok', 'x-empty': '' };
    const settings = compile({ operations: [{ operationId: 'a', method: 'GET', path: '/v1/a', answers: [{ status: 200, headers }] }] });
    const kept = settings.operations?.[0]?.answers[0]?.headers;
    expect(Object.getPrototypeOf(kept)).toBeNull();
    expect({ ...kept }).toEqual(headers);
  });
});

describe('a declared operation through the pipeline', () => {
  it('answers in order, each answer its times, the last one repeating', () => {
    const engine = engineWith();
    const answers = Array.from({ length: 6 }, () => engine.handle(req('GET', '/v1/store/orders')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 503, 200, 200, 200]);
    expect(answers.map((a) => a.body)).toEqual(['[{"id":1}]', '[{"id":1}]', '{"code":"down"}', '[]', '[]', '[]']);
    expect(answers[2]?.headers['Retry-After']).toBe('3');
    expect(answers[0]?.headers['Content-Type']).toBe('application/json');
    expect(answers[0]?.headers['X-RateLimit-Remaining']).toBe('299');
  });

  it('starts the answers over on a reset, and keeps them apart per session', () => {
    const engine = engineWith();
    engine.handle(req('GET', '/v1/store/orders'));
    engine.handle(req('GET', '/v1/store/orders'));
    const other = engine.handle(req('GET', '/v1/store/orders', { authorization: 'Bearer demo-pro', 'x-mock-session': 'other' }));
    expect(other.status).toBe(200);
    expect(engine.handle(req('GET', '/v1/store/orders')).status).toBe(503);
    engine.sessions.resolveId('default').reset();
    expect(engine.handle(req('GET', '/v1/store/orders')).body).toBe('[{"id":1}]');
  });

  it('needs a key (401) and answers nothing of its list without one', () => {
    const engine = engineWith();
    const refused = engine.handle(req('GET', '/v1/store/orders', {}));
    expect(refused.status).toBe(401);
    expect(refused.headers['WWW-Authenticate']).toMatch(/^Bearer realm="petstore"/);
    expect(refused.headers['X-RateLimit-Limit']).toBeDefined();
    expect(engine.handle(req('GET', '/v1/store/orders')).body).toBe('[{"id":1}]');
  });

  it('counts toward the rate limit and is refused with 429 past it, without moving on in its answers', () => {
    const engine = engineWith();
    const tiny = { authorization: 'Bearer tiny' };
    expect(engine.handle(req('GET', '/v1/store/orders', tiny)).status).toBe(200);
    expect(engine.handle(req('GET', '/v1/pets', tiny)).status).toBe(200);
    const limited = engine.handle(req('GET', '/v1/store/orders', tiny));
    expect(limited.status).toBe(429);
    expect(limited.headers['Retry-After']).toBe('60');
    expect(limited.headers['X-RateLimit-Remaining']).toBe('0');
    // The 429 took no answer: the next allowed call gets the second.
    expect(engine.handle(req('GET', '/v1/store/orders')).body).toBe('[{"id":1}]');
    expect(engine.handle(req('GET', '/v1/store/orders')).status).toBe(503);
  });

  it(`answers the ${DECLARED} the specification leaves unshown, and still refuses an undeclared one with 405`, () => {
    expect(engineWith().handle(req(DECLARED, '/v1/pets/1')).status).toBe(204);
    const plain = engineWith([ORDERS[0]!]).handle(req(DECLARED, '/v1/pets/1'));
    expect(plain.status).toBe(405);
    expect(plain.headers.Allow).toBe(allowOf('/v1/pets/1'));
    expect(engineWith([ORDERS[1]!]).handle(req('GET', '/v1/store/orders')).status).toBe(501);
  });

  it('changes no state: the store lists the same before and after', () => {
    const engine = engineWith();
    const before = engine.handle(req('GET', '/v1/pets')).body;
    expect(engine.handle(req(DECLARED, '/v1/pets/1')).status).toBe(204);
    expect(engine.handle(req('GET', '/v1/pets')).body).toBe(before);
    expect(engine.handle(req('GET', '/v1/pets/1')).status).toBe(200);
  });

  it('takes any body without reading it, but keeps the size cap', () => {
    const engine = engineWith();
    const body = new TextEncoder().encode('not json at all');
    const anyBody = engine.handle(req('POST', '/v1/store/orders/3/items', { authorization: 'Bearer demo-pro', 'content-type': 'text/plain' }, { body }));
    expect(anyBody.status).toBe(201);
    const tooLarge = engine.handle(
      req('POST', '/v1/store/orders/3/items', { authorization: 'Bearer demo-pro' }, { body: new Uint8Array(0), bodyTooLarge: true }),
    );
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body ?? '{}')).toMatchObject({ code: 'payload_too_large' });
  });

  it('does not move on in its answers past a refused body (413)', () => {
    const engine = engineWith();
    const refused = engine.handle(req('GET', '/v1/store/orders', { authorization: 'Bearer demo-pro' }, { body: new Uint8Array(0), bodyTooLarge: true }));
    expect(refused.status).toBe(413);
    const answers = Array.from({ length: 3 }, () => engine.handle(req('GET', '/v1/store/orders')).status);
    expect(answers).toEqual([200, 200, 503]);
  });

  it('answers a CORS preflight with its method allowed', () => {
    const preflight = engineWith().handle(
      req('OPTIONS', '/v1/pets/1', { origin: 'http://app.test', 'access-control-request-method': DECLARED, 'access-control-request-headers': 'authorization' }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers['Access-Control-Allow-Methods']).toBe(allowOf('/v1/pets/1', DECLARED));
    const answer = engineWith().handle(req(DECLARED, '/v1/pets/1', { authorization: 'Bearer demo-pro', origin: 'http://app.test' }));
    expect(answer.headers['Access-Control-Allow-Origin']).toBeDefined();
  });

  it('is journaled, exported in HAR and seen by the audit', () => {
    const engine = engineWith();
    const tiny = { authorization: 'Bearer tiny' };
    for (let i = 0; i < 4; i++) engine.handle(req('GET', '/v1/store/orders', tiny));
    const entries = engine.sessions.resolveId('default').journal.list();
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/v1/store/orders', 200],
      ['GET', '/v1/store/orders', 200],
      ['GET', '/v1/store/orders', 429],
      ['GET', '/v1/store/orders', 429],
    ]);
    expect(entries[0]?.reason).toBe('declared listOrders, answer 1 of 3');
    const har = toHar(entries, 'http://127.0.0.1:4010');
    expect(har.log.entries.map((e) => `${e.request.method} ${e.request.url} ${e.response.status}`)[0]).toBe('GET http://127.0.0.1:4010/v1/store/orders 200');
    const report = auditJournal(entries);
    expect(report.findings.map((f) => [f.rule, f.requests])).toContainEqual(['early-retry', [3, 4]]);
  });

  it('appears in the served OpenAPI document marked x-declared', () => {
    const doc = JSON.parse(engineWith().handle(req('GET', '/v1/openapi.json', {})).body ?? '{}') as {
      paths: Record<string, Record<string, { operationId: string; 'x-declared'?: boolean; parameters?: { name: string }[] }>>;
    };
    expect(doc.paths['/store/orders']?.get).toMatchObject({ operationId: 'listOrders', 'x-declared': true });
    expect(doc.paths['/pets/{petId}']?.[DECLARED.toLowerCase()]).toMatchObject({
      operationId: 'declaredPetCall',
      'x-declared': true,
      parameters: [{ name: 'petId' }],
    });
    expect(doc.paths['/pets/{petId}']?.get?.['x-declared']).toBeUndefined();
    expect(doc.paths['/store/orders/{orderId}/items']?.post?.parameters).toEqual([{ name: 'orderId', in: 'path', required: true, schema: { type: 'string' } }]);
  });
});
