// One session handle whatever the home of state: the same members, the same reading of the clock,
// and looking that creates nothing, in memory (answers at once) and on Redis (promises).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, startMock, type RunningMock, type SharedRunningMock } from '../../src/index.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();

/** Every member name of a handle, nested ones as `clock.now`. */
function members(handle: object): string[] {
  return Object.entries(handle)
    .flatMap(([name, value]) => (typeof value === 'object' && value !== null ? members(value).map((inner) => `${name}.${inner}`) : [name]))
    .sort();
}

describe.skipIf(!run)('one session handle for both homes of state', () => {
  let redis: TestRedis;
  let shared: SharedRunningMock;
  let memory: RunningMock;

  beforeAll(async () => {
    redis = await TestRedis.start();
    shared = await startMock({ state: redis.url, statePrefix: 'one-handle' });
    memory = await startMock();
  });
  afterAll(async () => {
    await shared?.close();
    await memory?.close();
    await redis?.stop();
  });

  it('has the same members in memory, on Redis and in a Fetch handler', () => {
    const expected = members(memory.session('a'));
    expect(expected).toContain('clock.advance');
    expect(expected).toContain('expectWellBehaved');
    expect(members(shared.session('a'))).toEqual(expected);
    expect(members(createFetchHandler().session('a'))).toEqual(expected);
  });

  it.each(['December 5, 2030', '2030-12-05', '2030-12-05T00:00:00', 'tomorrow'])('refuses clock.set(%j) the same way in both homes', async (instant) => {
    expect(() => memory.session('strict').clock.set(instant)).toThrow(RangeError);
    await expect(shared.session('strict').clock.set(instant)).rejects.toThrow(RangeError);
  });

  it('takes the same instants in both homes', async () => {
    memory.session('same').clock.freeze();
    await shared.session('same').clock.freeze();
    memory.session('same').clock.set('2030-12-05T00:00:00Z');
    await shared.session('same').clock.set('2030-12-05T00:00:00Z');
    expect(memory.session('same').clock.now().toISOString()).toBe('2030-12-05T00:00:00.000Z');
    expect((await shared.session('same').clock.now()).toISOString()).toBe('2030-12-05T00:00:00.000Z');
  });

  it('a clock beyond what a date can hold is a RangeError in both homes, thrown in memory and rejected on Redis', async () => {
    expect(() => memory.session('far').clock.advance(1e16)).toThrow(RangeError);
    await expect(shared.session('far').clock.advance(1e16)).rejects.toThrow(RangeError);
  });

  it('looking at a session (clock, journal, audit, HAR) creates it in neither home', async () => {
    const look = memory.session('only-looked-at');
    look.clock.now();
    look.requests();
    look.audit();
    look.har();
    expect(memory.sessions().map((s) => s.id)).not.toContain('only-looked-at');
    const sharedLook = shared.session('only-looked-at');
    await sharedLook.clock.now();
    await sharedLook.requests();
    await sharedLook.audit();
    await sharedLook.har();
    expect((await shared.sessions()).map((s) => s.id)).not.toContain('only-looked-at');
  });

  it('the audit names the session scenario’s removal date in both homes', async () => {
    for (const mock of [memory, shared]) {
      await mock.session('removal').useScenario('removal-eve');
    }
    const key = { authorization: 'Bearer demo-pro', 'x-mock-session': 'removal' };
    await fetch(`${memory.url}/pets/1`, { headers: key });
    await fetch(`${shared.url}/pets/1`, { headers: key });
    const inMemory = memory.session('removal').audit();
    const onRedis = await shared.session('removal').audit();
    expect(onRedis.findings.map((f) => f.message)).toEqual(inMemory.findings.map((f) => f.message));
    expect(inMemory.findings.map((f) => f.rule)).toContain('deprecated-call');
  });
});
