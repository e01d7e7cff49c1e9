// On a shared state the key ids are salted per deployment: every replica gives a key the same id
// (the salt is the deployment's world, drawn by its founder), another deployment another one, and
// a whole-key filter on one replica finds requests another answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock, type SharedRunningMock } from '../../src/index.js';
import { adminCall, keyIdsOf } from '../support/admin.js';
import { expectSaltedApart, journalOf, listAs } from '../support/key-ids.js';
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

  it("every replica gives a key the deployment's id; another deployment gives another, none the unsalted one", async () => {
    const [ofA, ofB, ofOther] = await Promise.all([keyIdsOf(a.origin), keyIdsOf(b.origin), keyIdsOf(other.origin)]);
    expect(ofB).toEqual(ofA);
    expectSaltedApart(ofA, ofOther, [A, B, C]);
  });

  it('a whole key on one replica finds the requests the other answered, told apart from a key that shows alike', async () => {
    await listAs(a, A, 'w');
    await listAs(b, B, 'w');
    await listAs(b, A, 'w');
    const [idA, idB] = await keyIdsOf(a.origin, 'w');
    expect((await journalOf(b, 'w')).map((e) => e.keyId)).toEqual([idA, idB, idA]);
    expect((await journalOf(b, 'w', A)).map((e) => e.seq)).toEqual([1, 3]);
    expect((await journalOf(a, 'w', B)).map((e) => e.seq)).toEqual([2]);
  });

  it("a snapshot of a mock in memory restored into the deployment takes the deployment's ids", async () => {
    await listAs(memory, C, 'moved');
    await listAs(memory, A, 'moved');
    const doc = (await adminCall(memory.origin, 'snapshot', { session: 'moved' })).json;
    expect((await adminCall(a.origin, 'snapshot', { method: 'PUT', session: 'moved', body: doc })).status).toBe(200);
    const [, , idC] = await keyIdsOf(b.origin, 'moved');
    expect((await journalOf(b, 'moved')).map((e) => [e.key, e.keyId])).toEqual([
      ['solo…042', idC],
      ['work…001', undefined],
    ]);
    await listAs(b, C, 'moved');
    expect((await journalOf(a, 'moved', C)).map((e) => e.seq)).toEqual([1, 3]);
  });
});
