// Declared operations over a real socket (port 0): a scenario file's operations answer in order
// through the whole pipeline, the served document lists them, and PUT /__admin/scenario takes them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { adminCall } from '../support/admin.js';
import { allowOf, undeclaredMethod } from '../support/undeclared.js';

/** A method the specification leaves undefined on one animal, which the scenario declares; and one it declares neither. */
const DECLARED = undeclaredMethod('/v1/pets/{petId}');
const UNDECLARED = undeclaredMethod('/v1/pets/{petId}', DECLARED);

const SCENARIO = `description: store orders and a ${DECLARED} of an animal, declared
operations:
  - operationId: listOrders
    method: GET
    path: /v1/store/orders
    answers:
      - { status: 200, body: [{ id: 1, petId: 3 }], times: 2 }
      - { status: 503, body: { code: busy }, headers: { Retry-After: "5" } }
  - operationId: declaredPetCall
    method: ${DECLARED}
    path: /v1/pets/{id}
    answers: [{ status: 204 }]
  - operationId: placeOrder
    method: POST
    path: /v1/store/orders
    answers: [{ status: 201, body: { id: 9 } }]
`;

let mock: RunningMock;
beforeAll(async () => {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-declared-http-'));
  writeFileSync(join(folder, 'orders.yaml'), SCENARIO);
  mock = await startMock({ port: 0, scenario: join(folder, 'orders.yaml') });
});
afterAll(async () => {
  await mock.close();
});

const KEY = { authorization: 'Bearer demo-pro' };
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${mock.url}${path}`, { ...init, headers: { ...KEY, ...(init.headers as Record<string, string>) } });

describe('declared operations over HTTP', () => {
  it('answer in order, the last repeating, and start over on a reset', async () => {
    const statuses: number[] = [];
    const bodies: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await api('/store/orders');
      statuses.push(res.status);
      bodies.push(await res.text());
      if (i === 2) expect(res.headers.get('retry-after')).toBe('5');
    }
    expect(statuses).toEqual([200, 200, 503, 503]);
    expect(bodies[0]).toBe('[{"id":1,"petId":3}]');
    mock.reset();
    expect((await api('/store/orders')).status).toBe(200);
  });

  it('need a key, carry the rate-limit headers, and answer HEAD without a body', async () => {
    const refused = await fetch(`${mock.url}/pets/5`, { method: DECLARED });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-ratelimit-limit')).not.toBeNull();
    const declared = await api('/pets/5', { method: DECLARED });
    expect(declared.status).toBe(204);
    expect(declared.headers.get('x-ratelimit-remaining')).not.toBeNull();
    const head = await api('/store/orders', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('are counted in the metrics by status and plan', async () => {
    const count = async () => {
      const text = await (await fetch(`${mock.origin}/__admin/metrics`)).text();
      return Number(/^petstore_mock_requests_total\{status="204",code="",plan="pro"\} (\d+)$/m.exec(text)?.[1] ?? '0');
    };
    const before = await count();
    expect((await api('/pets/2', { method: DECLARED })).status).toBe(204);
    expect(await count()).toBe(before + 1);
  });

  it('leave the animals as they were', async () => {
    expect((await api('/pets/1', { method: DECLARED })).status).toBe(204);
    expect((await api('/pets/1')).status).toBe(200);
  });

  it('are allowed by preflights and in Allow', async () => {
    const preflight = await fetch(`${mock.url}/pets/1`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.test', 'access-control-request-method': DECLARED },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe(allowOf('/v1/pets/1', DECLARED));
    const refused = await api('/pets/1', { method: UNDECLARED });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe(allowOf('/v1/pets/1', DECLARED));
  });

  it('take any body on a POST, but not one over 1 MiB', async () => {
    const ok = await api('/store/orders', { method: 'POST', body: 'anything', headers: { 'content-type': 'text/plain' } });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ id: 9 });
    const big = await api('/store/orders', { method: 'POST', body: 'x'.repeat(1024 * 1024 + 1), headers: { 'content-type': 'application/json' } });
    expect(big.status).toBe(413);
  });

  it('are in the served OpenAPI document, marked x-declared', async () => {
    const doc = (await (await fetch(`${mock.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    expect(doc.paths['/store/orders']?.get).toMatchObject({ operationId: 'listOrders', 'x-declared': true });
    expect(doc.paths['/store/orders']?.post).toMatchObject({ operationId: 'placeOrder', 'x-declared': true });
    expect(doc.paths['/pets/{petId}']?.[DECLARED.toLowerCase()]).toMatchObject({ operationId: 'declaredPetCall', 'x-declared': true });
    expect(doc.paths['/pets']?.get?.['x-declared']).toBeUndefined();
  });

  it('come in scenario objects over PUT /__admin/scenario, for that session alone', async () => {
    const scenario = {
      description: 'one order',
      operations: [{ operationId: 'getOrder', method: 'GET', path: '/v1/store/orders/{orderId}', answers: [{ status: 200, body: { id: 7 } }] }],
    };
    expect((await adminCall(mock.origin, 'scenario', { method: 'PUT', body: { scenario }, session: 'obj' })).status).toBe(200);
    const own = await api('/store/orders/7', { headers: { 'x-mock-session': 'obj' } });
    expect([own.status, await own.text()]).toEqual([200, '{"id":7}']);
    expect((await api('/store/orders/7')).status).toBe(501);
    const wrong = await adminCall<{ details?: { field: string }[] }>(mock.origin, 'scenario', {
      method: 'PUT',
      body: { scenario: { description: 'x', operations: [{ operationId: 'a', method: 'GET', path: '/v1/pets/{id}', answers: [{ status: 200 }] }] } },
      session: 'obj',
    });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.json)).toContain('/operations/0/path');
  });

  it.each([
    ['Trailer', 'Expires'],
    ['constructor', 'x'],
    ['__proto__', 'x'],
    ['X-Done', 'done \u2713'],
    ['X-Split', 'a\r\nSet-Cookie: b=c'],
    ['Transfer-Encoding', 'chunked'],
  ])('refuse a declared answer header %s with 400 naming its place, and the session keeps serving', async (name, value) => {
    const headers = JSON.parse(`{${JSON.stringify(name)}:${JSON.stringify(value)}}`) as Record<string, string>;
    const scenario = {
      description: 'bad header',
      operations: [{ operationId: 'a', method: 'GET', path: '/v1/store/orders/{id}', answers: [{ status: 200 }, { status: 200, headers }] }],
    };
    const refused = await adminCall<{ code?: string; details?: { field: string }[] }>(mock.origin, 'scenario', {
      method: 'PUT',
      body: { scenario },
      session: 'hdr',
    });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('scenario_invalid');
    expect(JSON.stringify(refused.json.details)).toContain(`/operations/0/answers/1/headers/${name}`);
    expect((await api('/pets', { headers: { 'x-mock-session': 'hdr' } })).status).toBe(200);
  });

  it('carry their place in a snapshot; an older document without it restores at the start; an unknown id is refused', async () => {
    const orders = async (session: string) => (await api('/store/orders', { headers: { 'x-mock-session': session } })).status;
    expect([await orders('snap'), await orders('snap')]).toEqual([200, 200]);
    const doc = await mock.session('snap').snapshot();
    expect(doc.scenario.declared).toEqual({ listOrders: 2 });
    await mock.session('snap-2').restore(doc);
    expect(await orders('snap-2')).toBe(503);
    const { declared: _declared, ...older } = doc.scenario;
    await mock.session('snap-3').restore({ ...doc, scenario: older });
    expect(await orders('snap-3')).toBe(200);
    const unknown = { ...doc, scenario: { ...doc.scenario, declared: { nope: 1 } } };
    await expect(Promise.resolve().then(() => mock.session('snap-4').restore(unknown))).rejects.toThrow(/scenario\/declared\/nope/);
  });
});
