// On a shared state the key ids are salted per deployment: every replica gives a key the same id
// (the salt is the deployment's world, drawn by its founder), another deployment another one, and
// a whole-key filter on one replica finds requests another answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock, type SharedRunningMock } from '../../src/index.js';
import { keyIdOf, sha256Hex } from '../../src/core/state/key-id.js';
import type { JournalEntry } from '../../src/core/state/journal.js';
import { adminCall, keyIdsOf } from '../support/admin.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const A = 'worker-a-001';
const B = 'worker-b-001';
const C = 'solo-key-0042';
const KEYS = [`${A}:pro`, `${B}:pro`, `${C}:pro`];

describe.skipIf(!redisAvailable())('key ids on a shared state', () => {
  let redis: TestRedis;
  let a: SharedRunningMock;
  let b: SharedRunningMock;
  let other: SharedRunningMock;
  let memory: RunningMock;
  beforeAll(async () => {
    redis = await TestRedis.start();
    a = await startMock({ state: redis.url, statePrefix: 'ids', keys: KEYS });
    b = await startMock({ state: redis.url, statePrefix: 'ids', keys: KEYS });
    other = await startMock({ state: redis.url, statePrefix: 'ids-other', keys: KEYS });
    memory = await startMock({ port: 0, keys: KEYS });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), other?.close(), memory?.close()]);
    await redis?.stop();
  });

  const get = (mock: RunningMock | SharedRunningMock, key: string, session: string) =>
    fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}`, 'x-mock-session': session } }).then((r) => r.arrayBuffer());
  const requests = async (mock: RunningMock | SharedRunningMock, session: string, key?: string) =>
    (await adminCall<JournalEntry[]>(mock.origin, `requests${key === undefined ? '' : `?key=${encodeURIComponent(key)}`}`, { session })).json;

  it("every replica gives a key the deployment's id; another deployment gives another, none the unsalted one", async () => {
    const [ofA, ofB, ofOther] = await Promise.all([keyIdsOf(a.origin), keyIdsOf(b.origin), keyIdsOf(other.origin)]);
    expect(ofA).toHaveLength(3);
    expect(ofB).toEqual(ofA);
    expect(ofOther.filter((id, i) => id === ofA[i])).toEqual([]);
    for (const [i, key] of [A, B, C].entries()) {
      expect([ofA[i], ofOther[i]]).not.toContain(sha256Hex(key).slice(0, 8));
      expect([ofA[i], ofOther[i]]).not.toContain(keyIdOf(key, ''));
    }
  });

  it('a whole key on one replica finds the requests the other answered, told apart from a key that shows alike', async () => {
    await get(a, A, 'w');
    await get(b, B, 'w');
    await get(b, A, 'w');
    const [idA, idB] = await keyIdsOf(a.origin, 'w');
    expect((await requests(b, 'w')).map((e) => e.keyId)).toEqual([idA, idB, idA]);
    expect((await requests(b, 'w', A)).map((e) => e.seq)).toEqual([1, 3]);
    expect((await requests(a, 'w', B)).map((e) => e.seq)).toEqual([2]);
  });

  it("a snapshot of a mock in memory restored into the deployment takes the deployment's ids", async () => {
    await get(memory, C, 'moved');
    await get(memory, A, 'moved');
    const doc = (await adminCall(memory.origin, 'snapshot', { session: 'moved' })).json;
    expect((await adminCall(a.origin, 'snapshot', { method: 'PUT', session: 'moved', body: doc })).status).toBe(200);
    const [, , idC] = await keyIdsOf(b.origin, 'moved');
    expect((await requests(b, 'moved')).map((e) => [e.key, e.keyId])).toEqual([
      ['solo…042', idC],
      ['work…001', undefined],
    ]);
    await get(b, C, 'moved');
    expect((await requests(a, 'moved', C)).map((e) => e.seq)).toEqual([1, 3]);
  });
});
