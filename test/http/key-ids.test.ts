// The journal's keyId is salted per deployment: two mocks give one key two ids, and a snapshot of
// one restored into the other takes this one's ids, so a whole-key filter still finds its requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { keyIdOf, sha256Hex } from '../../src/core/state/key-id.js';
import type { JournalEntry } from '../../src/core/state/journal.js';
import { adminCall, keyIdsOf } from '../support/admin.js';

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

const get = (mock: RunningMock, key: string, session: string) =>
  fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}`, 'x-mock-session': session } }).then((r) => r.arrayBuffer());
const requests = async (mock: RunningMock, session: string, key?: string) =>
  (await adminCall<JournalEntry[]>(mock.origin, `requests${key === undefined ? '' : `?key=${encodeURIComponent(key)}`}`, { session })).json;

describe('key ids salted per deployment', () => {
  it('two mocks give one key two ids, neither the bare SHA-256 of the key nor the unsalted id', async () => {
    const [idsX, idsY] = await Promise.all([keyIdsOf(x.origin), keyIdsOf(y.origin)]);
    expect(idsX).toHaveLength(3);
    for (const id of [...idsX, ...idsY]) expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(idsX.filter((id, i) => id === idsY[i])).toEqual([]);
    for (const [i, key] of [A, B, C].entries()) {
      expect([idsX[i], idsY[i]]).not.toContain(sha256Hex(key).slice(0, 8));
      expect([idsX[i], idsY[i]]).not.toContain(keyIdOf(key, ''));
    }
  });

  it("a snapshot restored into another mock takes that mock's ids: a whole key still finds its requests", async () => {
    await get(x, A, 'moved');
    await get(x, B, 'moved');
    await get(x, C, 'moved');
    await get(x, C, 'moved');
    const [idA, , idC] = await keyIdsOf(x.origin, 'moved');
    expect((await requests(x, 'moved')).map((e) => e.keyId)).toEqual([idA, expect.any(String), idC, idC]);
    const doc = (await adminCall(x.origin, 'snapshot', { session: 'moved' })).json;
    expect((await adminCall(y.origin, 'snapshot', { method: 'PUT', session: 'moved', body: doc })).status).toBe(200);

    const [, , idCy] = await keyIdsOf(y.origin, 'moved');
    const restored = await requests(y, 'moved');
    // C alone shows as `solo…042`: its entries take y's id. A and B show alike, and x's ids cannot
    // be told apart without x's salt: theirs are dropped, and they are found by how they show.
    expect(restored.map((e) => [e.key, e.keyId])).toEqual([
      ['work…001', undefined],
      ['work…001', undefined],
      ['solo…042', idCy],
      ['solo…042', idCy],
    ]);
    expect((await requests(y, 'moved', C)).map((e) => e.seq)).toEqual([3, 4]);
    expect((await requests(y, 'moved', A)).map((e) => e.seq)).toEqual([1, 2]);
    // A request made after the restore carries y's id and is found with the restored ones.
    await get(y, C, 'moved');
    expect((await requests(y, 'moved', C)).map((e) => e.seq)).toEqual([3, 4, 5]);
  });

  it('a snapshot restored into the mock that took it keeps its ids', async () => {
    await get(x, A, 'kept');
    await get(x, B, 'kept');
    const before = await requests(x, 'kept');
    const doc = (await adminCall(x.origin, 'snapshot', { session: 'kept' })).json;
    expect((await adminCall(x.origin, 'snapshot', { method: 'PUT', session: 'kept-2', body: doc })).status).toBe(200);
    expect((await requests(x, 'kept-2')).map((e) => e.keyId)).toEqual(before.map((e) => e.keyId));
    expect((await requests(x, 'kept-2', B)).map((e) => e.seq)).toEqual([2]);
  });
});
