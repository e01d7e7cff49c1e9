// Until the Redis home implements restore, a session on shared state refuses it (and scenario
// objects) with the catalogued `snapshot_unsupported`, saying so; taking a snapshot works there.
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
    ['PUT', 'snapshot', { format: 'petstore-mock/snapshot', version: 1 }],
    ['PUT', 'scenario', { scenario: { description: 'x' } }],
  ])('%s /__admin/%s answers 501 snapshot_unsupported', async (method, path, body) => {
    const res = await adminCall<ErrorJson>(mock.origin, path, { method, body });
    expect(res.status).toBe(501);
    expect(res.json.code).toBe('snapshot_unsupported');
    expect(res.json.message).toMatch(MESSAGE);
  });

  it('GET /__admin/snapshot and mock.snapshot() answer the session', async () => {
    const res = await adminCall<{ format: string; session: string }>(mock.origin, 'snapshot', { method: 'GET', session: 'a' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ format: 'petstore-mock/snapshot', session: 'a' });
    expect((await mock.snapshot()).session).toBe('default');
  });

  it('the library refuses a restore, and import and exportOnExit are refused at start', async () => {
    await expect(mock.session('x').restore({})).rejects.toThrow(MESSAGE);
    await expect(startMock({ state: redis.url, import: {} })).rejects.toThrow(/the option "import" cannot be used with "state"/);
    await expect(startMock({ state: redis.url, exportOnExit: 'x.json' })).rejects.toThrow(/the option "exportOnExit" cannot be used with "state"/);
  });
});
