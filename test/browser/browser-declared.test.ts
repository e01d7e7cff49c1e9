import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/browser/index.js';

// The browser build shares the scenario schema (read as data by the same checker) and the
// pipeline: a scenario object's declared operations answer there as on the server.
const api = 'https://api.example.test/v1';
const pro = { headers: { authorization: 'Bearer demo-pro' } };
const ORDERS = {
  name: 'orders',
  description: 'store orders, declared',
  operations: [{ operationId: 'listOrders', method: 'GET', path: '/v1/store/orders', answers: [{ status: 200, body: [], times: 1 }, { status: 500 }] }],
};

describe('declared operations in the browser build', () => {
  it('answer in order from a scenario object, and start over on a reset', async () => {
    const petstore = createFetchHandler({ scenarios: [ORDERS], scenario: 'orders' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await petstore(new Request(`${api}/store/orders`, pro))).status);
    expect(statuses).toEqual([200, 500, 500]);
    expect((await petstore(new Request(`${api}/store/orders`))).status).toBe(401);
    petstore.reset();
    expect((await petstore(new Request(`${api}/store/orders`, pro))).status).toBe(200);
  });

  it('refuses a declaration of what the specification defines, naming the field', () => {
    const bad = { ...ORDERS, name: 'bad', operations: ORDERS.operations.map((op) => ({ ...op, path: '/v1/pets/{id}' })) };
    expect(() => createFetchHandler({ scenarios: [bad], scenario: 'bad' })).toThrow(
      /^petstore-mock: the scenario "bad" at operations\[0\]\.path: GET \/v1\/pets\/\{id\} is already defined by the specification as getPet/,
    );
  });
});
