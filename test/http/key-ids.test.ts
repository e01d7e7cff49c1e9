// The journal's keyId is salted per deployment: two mocks give one key two ids, and a snapshot of
// one restored into the other takes this one's ids, so a whole-key filter still finds its requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { adminCall, keyIdsOf } from '../support/admin.js';
import { expectSaltedApart, journalOf, listAs } from '../support/key-ids.js';

const A = 'worker-a-001';
const B = 'worker-b-001';
const C = 'solo-key-0042';
const KEYS = [`${A}:pro`, `${B}:pro`, `${C}:pro`];
let x: RunningMock;
let y: RunningMock;
beforeAll(async () => {
  [x, y] = await Promise.all([startMock({ port: 0, keys: KEYS }), startMock({ port: 0, keys: KEYS })]);
});
afterAll(async () => {
  await Promise.all([x?.close(), y?.close()]);
});

describe('key ids salted per deployment', () => {
  it('two mocks give one key two ids, neither the bare SHA-256 of the key nor the unsalted id', async () => {
    const [idsX, idsY] = await Promise.all([keyIdsOf(x.origin), keyIdsOf(y.origin)]);
    expectSaltedApart(idsX, idsY, [A, B, C]);
  });

  it("a snapshot restored into another mock takes that mock's ids: a whole key still finds its requests", async () => {
    await listAs(x, A, 'moved');
    await listAs(x, B, 'moved');
    await listAs(x, C, 'moved');
    await listAs(x, C, 'moved');
    const [idA, , idC] = await keyIdsOf(x.origin, 'moved');
    expect((await journalOf(x, 'moved')).map((e) => e.keyId)).toEqual([idA, expect.any(String), idC, idC]);
    const doc = (await adminCall(x.origin, 'snapshot', { session: 'moved' })).json;
    expect((await adminCall(y.origin, 'snapshot', { method: 'PUT', session: 'moved', body: doc })).status).toBe(200);

    const [, , idCy] = await keyIdsOf(y.origin, 'moved');
    const restored = await journalOf(y, 'moved');
    // C alone shows as `solo…042`: its entries take y's id. A and B show alike, and x's ids cannot
    // be told apart without x's salt: theirs are dropped, and they are found by how they show.
    expect(restored.map((e) => [e.key, e.keyId])).toEqual([
      ['work…001', undefined],
      ['work…001', undefined],
      ['solo…042', idCy],
      ['solo…042', idCy],
    ]);
    expect((await journalOf(y, 'moved', C)).map((e) => e.seq)).toEqual([3, 4]);
    expect((await journalOf(y, 'moved', A)).map((e) => e.seq)).toEqual([1, 2]);
    // A request made after the restore carries y's id and is found with the restored ones.
    await listAs(y, C, 'moved');
    expect((await journalOf(y, 'moved', C)).map((e) => e.seq)).toEqual([3, 4, 5]);
  });

  it('a snapshot restored into the mock that took it keeps its ids', async () => {
    await listAs(x, A, 'kept');
    await listAs(x, B, 'kept');
    const before = await journalOf(x, 'kept');
    const doc = (await adminCall(x.origin, 'snapshot', { session: 'kept' })).json;
    expect((await adminCall(x.origin, 'snapshot', { method: 'PUT', session: 'kept-2', body: doc })).status).toBe(200);
    expect((await journalOf(x, 'kept-2')).map((e) => e.keyId)).toEqual(before.map((e) => e.keyId));
    expect((await journalOf(x, 'kept-2', B)).map((e) => e.seq)).toEqual([2]);
  });
});
