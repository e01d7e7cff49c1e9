// Until the Redis home implements the port's snapshot and restore, a session on shared state
// refuses them (and scenario objects) with the catalogued `snapshot_unsupported`, saying so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { adminCall, type ErrorJson } from '../support/admin.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();
const MESSAGE = /on shared state \(--state\) are not supported yet; use a mock without --state/;

describe.skipIf(!run)('snapshots on shared state', () => {
  let redis: TestRedis;
  let mock: SharedRunningMock;
  beforeAll(async () => {
    redis = await TestRedis.start();
    mock = await startMock({ state: redis.url, statePrefix: 'snap' });
  });
  afterAll(async () => {
    await mock?.close();
    await redis?.stop();
  });

  it.each([
    ['GET', 'snapshot', undefined],
    ['PUT', 'snapshot', { format: 'petstore-mock/snapshot', version: 1 }],
    ['PUT', 'scenario', { scenario: { description: 'x' } }],
  ])('%s /__admin/%s answers 501 snapshot_unsupported', async (method, path, body) => {
    const res = await adminCall<ErrorJson>(mock.origin, path, { method, body });
    expect(res.status).toBe(501);
    expect(res.json.code).toBe('snapshot_unsupported');
    expect(res.json.message).toMatch(MESSAGE);
  });

  it('the library refuses too, and so do import and exportOnExit at start', async () => {
    await expect(mock.snapshot()).rejects.toThrow(MESSAGE);
    await expect(mock.session('x').restore({})).rejects.toThrow(MESSAGE);
    await expect(startMock({ state: redis.url, import: {} })).rejects.toThrow(/the option "import" cannot be used with "state"/);
    await expect(startMock({ state: redis.url, exportOnExit: 'x.json' })).rejects.toThrow(/the option "exportOnExit" cannot be used with "state"/);
  });
});
