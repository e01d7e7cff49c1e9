// The removal date follows the OpenAPI document on both homes of state: with a document that marks
// listPets deprecated and getPet not, the Redis script lets GET /v1/pets's 410 win over its rate
// limit and refuses GET /v1/pets/{petId} for it, exactly as the memory home does.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMock, type RunningMock, type SharedRunningMock } from '../../src/index.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

vi.mock('../../src/core/input/openapi.js', async (importOriginal) =>
  (await import('../support/deprecated-document.js')).listPetsDeprecated(await importOriginal()),
);

const run = redisAvailable();
const AUTH = { authorization: 'Bearer one' };
const REMOVAL = '2030-12-05T00:00:00.000Z';

describe.skipIf(!run)('a document that deprecates listPets, on both homes of state', () => {
  let redis: TestRedis;
  let memory: RunningMock;
  let shared: SharedRunningMock;
  beforeAll(async () => {
    redis = await TestRedis.start();
    memory = await startMock({ keys: ['one:free:1:1000'] });
    shared = await startMock({ state: redis.url, statePrefix: 'deprecation-document', keys: ['one:free:1:1000'] });
  });
  afterAll(async () => {
    await memory?.close();
    await shared?.close();
    await redis?.stop();
  });

  it.each(['memory', 'redis'])('in %s: GET /v1/pets is announced, then removed ahead of its limit', async (home) => {
    const mock = home === 'memory' ? memory : shared;
    await mock.clock.freeze();
    await mock.clock.set('2030-12-04T23:59:00Z');
    const answers: [number, string | null][] = [];
    const get = async (path: string) => {
      const res = await fetch(`${mock.url}${path}`, { headers: AUTH });
      await res.arrayBuffer();
      answers.push([res.status, res.headers.get('sunset')]);
    };
    await get('/pets');
    await get('/pets');
    await mock.clock.set(REMOVAL);
    await get('/pets/1');
    await get('/pets');
    await get('/pets/1');
    const sunset = 'Thu, 05 Dec 2030 00:00:00 GMT';
    expect(answers).toEqual([
      [200, sunset],
      [429, sunset],
      [200, null],
      [410, sunset],
      [429, null],
    ]);
    const report = await mock.audit();
    expect(report.findings.map((f) => [f.rule, f.requests])).toContainEqual(['deprecated-call', [1, 2]]);
    expect(report.findings.find((f) => f.rule === 'deprecated-call')?.message).toContain('used GET /v1/pets, which the specification deprecates');
  });
});
