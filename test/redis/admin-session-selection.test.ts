// Every admin call selects its session by X-Mock-Session or ?session=, on shared state.
import { afterAll, beforeAll, describe } from 'vitest';
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
});
