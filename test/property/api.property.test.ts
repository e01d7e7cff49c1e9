import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import { LIMIT_BOUNDS, PET_STATUSES } from '../../src/core/input/openapi.js';
import { buildBaseData, defaultSettings } from '../../src/core/state/session-settings.js';
import type { CoreResponse } from '../../src/core/types.js';
import { responseProblem } from '../support/openapi-check.js';
import { minuteDay } from '../../src/core/state/windows.js';

const KEY = { key: 'prop', plan: 'enterprise' as const, limits: minuteDay(1e9, 1e9) };
const SEEDED = 3;

function engine(): MockEngine {
  return new MockEngine({ settings: { ...defaultSettings(buildBaseData({ count: SEEDED }), [KEY]), clock: { start: Date.UTC(2026, 2, 10), frozen: true } } });
}

/** Sends one request to the core and asserts the answer is one the OpenAPI document declares. */
function send(
  e: MockEngine,
  method: string,
  path: string,
  query = '',
  body?: string | Uint8Array,
  headers: Record<string, string> = {},
): CoreResponse & { json: any } {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const res = e.handle({
    method,
    path,
    query,
    headers: { authorization: `Bearer ${KEY.key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: bytes ?? null,
  });
  const problem = responseProblem(method, path, res.status, new Headers(res.headers), res.body ?? '');
  expect(problem).toBeUndefined();
  expect(res.status).toBeLessThan(500);
  return { ...res, json: res.body ? JSON.parse(res.body) : undefined };
}

const INT64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const status = fc.constantFrom(...PET_STATUSES);
/** A valid NewPet as JSON text, with categoryId written exactly (it may pass 2^53). */
const newPet = fc.record({ name: fc.string({ unit: 'grapheme', maxLength: 30 }), categoryId: INT64, status: fc.option(status, { nil: undefined }) });
const petText = (p: { name: string; categoryId: bigint; status?: string }): string =>
  `{"name":${JSON.stringify(p.name)},"categoryId":${p.categoryId}${p.status === undefined ? '' : `,"status":"${p.status}"`}}`;

describe('valid requests get a documented success', () => {
  it('GET /v1/pets with any valid limit and status (and unknown parameters) -> 200, filtered and cut', () => {
    const e = engine();
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: LIMIT_BOUNDS.minimum, max: LIMIT_BOUNDS.maximum })),
        fc.option(status),
        fc.array(fc.stringMatching(/^[a-z]{1,8}=[a-z0-9]{0,8}$/), { maxLength: 3 }),
        (limit, st, extra) => {
          fc.pre(!extra.some((p) => p.startsWith('limit=') || p.startsWith('status=')));
          const query = [...(limit === null ? [] : [`limit=${limit}`]), ...(st === null ? [] : [`status=${st}`]), ...extra].join('&');
          const res = send(e, 'GET', '/v1/pets', query);
          expect(res.status).toBe(200);
          expect(res.json.length).toBeLessThanOrEqual(limit ?? LIMIT_BOUNDS.default);
          if (st !== null) for (const pet of res.json) expect(pet.status).toBe(st);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('POST /v1/pets with any valid NewPet -> 201 echoing it exactly, with a new id', () => {
    const e = engine();
    fc.assert(
      fc.property(newPet, (pet) => {
        const res = send(e, 'POST', '/v1/pets', '', petText(pet));
        expect(res.status).toBe(201);
        expect(res.body).toBe(`{"id":${res.json.id},${petText(pet).slice(1)}`);
        expect(res.headers.Location).toBe(`/v1/pets/${res.json.id}`);
      }),
      { numRuns: 200 },
    );
  });

  it('GET /v1/pets/{petId} with any int64 -> 200 or 404', () => {
    const e = engine();
    fc.assert(
      fc.property(fc.oneof(INT64, fc.bigInt({ min: 1n, max: BigInt(SEEDED) })), (id) => {
        const res = send(e, 'GET', `/v1/pets/${id}`);
        expect(res.status).toBe(id >= 1n && id <= BigInt(SEEDED) ? 200 : 404);
      }),
      { numRuns: 200 },
    );
  });
});

describe('schema-breaking requests get a documented 4xx, never a 5xx', () => {
  const e = engine();
  const NEWPET_KEYS = ['name', 'categoryId', 'status'];
  const isValidNewPet = (v: unknown): boolean => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
    const o = v as Record<string, unknown>;
    return (
      Object.keys(o).every((k) => NEWPET_KEYS.includes(k)) &&
      typeof o.name === 'string' &&
      Number.isSafeInteger(o.categoryId) &&
      (o.status === undefined || (PET_STATUSES as readonly unknown[]).includes(o.status))
    );
  };

  it('any JSON value that is not a NewPet -> 400 invalid_body or invalid_json', () => {
    const near = fc.record({ name: fc.jsonValue(), categoryId: fc.jsonValue(), status: fc.jsonValue(), extra: fc.jsonValue() }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), near), (value) => {
        fc.pre(!isValidNewPet(value));
        const res = send(e, 'POST', '/v1/pets', '', JSON.stringify(value));
        expect(res.status).toBe(400);
        expect(['invalid_body', 'invalid_json']).toContain(res.json.code);
      }),
      { numRuns: 300 },
    );
  });

  it('any bytes as a body, plain or compressed -> 201 or a 4xx, never a 5xx', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.constantFrom('', 'gzip', 'deflate', 'br'), (bytes, encoding) => {
        const res = send(e, 'POST', '/v1/pets', '', bytes, encoding ? { 'content-encoding': encoding } : {});
        expect(res.status === 201 || (res.status >= 400 && res.status < 500)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('any query string -> 200 or 400 invalid_query', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.webQueryParameters(),
          fc.stringMatching(/^(limit|status)=[-+.%0-9a-zA-Z ]{0,6}(&(limit|status)=[0-9a-z]{0,4})?$/),
        ),
        (query) => {
          const res = send(e, 'GET', '/v1/pets', query);
          expect([200, 400]).toContain(res.status);
          if (res.status === 400) expect(res.json.code).toBe('invalid_query');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('any path segment as a petId -> 200, 400 or 404', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 25 }), fc.webSegment(), fc.string({ unit: 'binary', maxLength: 10 }).map(encodeURIComponent)), (segment) => {
        fc.pre(segment !== '' && !segment.includes('/'));
        const res = send(e, 'GET', `/v1/pets/${segment}`);
        expect([200, 400, 404]).toContain(res.status);
      }),
      { numRuns: 300 },
    );
  });

  it('any method and path under /v1 -> a documented answer', () => {
    fc.assert(
      fc.property(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'), fc.webPath(), (method, rest) => {
        const res = send(e, method, `/v1${rest}`, '', method === 'POST' ? '{}' : undefined);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the store after any sequence of creates equals a simple model', () => {
  it('ids, list order, status filter and lookups all match', () => {
    const attempt = fc.oneof(
      { weight: 3, arbitrary: newPet.map((p) => ({ ok: true as const, pet: p })) },
      { weight: 1, arbitrary: fc.jsonValue().map((v) => ({ ok: false as const, text: JSON.stringify(v) })) },
    );
    fc.assert(
      fc.property(fc.array(attempt, { maxLength: 40 }), (attempts) => {
        const e = engine();
        const seeded = send(e, 'GET', '/v1/pets', 'limit=100').json as { id: number }[];
        const model: { id: number; body: string; status?: string }[] = [];
        for (const a of attempts) {
          const text = a.ok ? petText(a.pet) : a.text;
          const res = send(e, 'POST', '/v1/pets', '', text);
          if (res.status !== 201) continue;
          const id = SEEDED + model.length + 1;
          expect(res.json.id).toBe(id);
          model.push({ id, body: res.body ?? '', status: res.json.status });
        }
        const all = send(e, 'GET', '/v1/pets', 'limit=100');
        expect(all.body).toBe(`[${[...seeded.map((p) => JSON.stringify(p)), ...model.map((m) => m.body)].slice(0, 100).join(',')}]`);
        for (const st of PET_STATUSES) {
          const listed = send(e, 'GET', '/v1/pets', `status=${st}&limit=100`).json as { id: number }[];
          const expected = [
            ...seeded.filter((p) => (p as { status?: string }).status === st).map((p) => p.id),
            ...model.filter((m) => m.status === st).map((m) => m.id),
          ];
          expect(listed.map((p) => p.id)).toEqual(expected.slice(0, 100));
        }
        for (const m of model) expect(send(e, 'GET', `/v1/pets/${m.id}`).body).toBe(m.body);
        expect(send(e, 'GET', `/v1/pets/${SEEDED + model.length + 1}`).status).toBe(404);
      }),
      { numRuns: 60 },
    );
  });
});
