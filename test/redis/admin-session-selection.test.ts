// Every admin call selects its session by X-Mock-Session or ?session=, on shared state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, type ErrorJson } from '../support/admin.js';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { TestRedis, redisAvailable } from '../support/redis.js';
import { describeSessionSelection } from '../support/session-selection.js';

describe.skipIf(!redisAvailable())('shared state', () => {
  let redis: TestRedis;
  let mock: SharedRunningMock;
  beforeAll(async () => {
    redis = await TestRedis.start();
    mock = await startMock({ port: 0, state: redis.url, statePrefix: 'selection' });
  });
  afterAll(async () => {
    await mock?.close();
    await redis?.stop();
  });
  describeSessionSelection('on Redis', () => mock.origin);
  it('GET /__admin/snapshot?before=SEQ is refused with 501, saying what to do instead', async () => {
    const reply = await adminCall<ErrorJson>(mock.origin, 'snapshot?session=s&before=1');
    expect([reply.status, reply.json.code]).toEqual([501, 'snapshot_unsupported']);
    expect(reply.json.message).toBe(
      'petstore-mock: snapshots from before a request (?before=SEQ) are kept by the in-memory mock only; on shared state (--state), take GET /__admin/snapshot before sending the request instead.',
    );
  });
});
