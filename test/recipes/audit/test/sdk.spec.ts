import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMock, type RunningMock } from 'petstore-mock';
import { createClient } from '../src/client.js'; // your SDK

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({
    keys: ['sdk-key:free:1:1000'],
    // The 429's wait runs on a clock that moves, as the SDK's sleep does.
    onRequest: (entry) => {
      if (entry.status === 429 && mock.clock.state().frozen) mock.clock.unfreeze();
    },
  });
});
afterAll(() => mock.close());

it('waits Retry-After before retrying a 429', async () => {
  mock.reset();
  mock.clock.freeze();
  mock.clock.set('2030-01-01T12:00:59.500Z');
  const client = createClient({ baseUrl: mock.url, apiKey: 'sdk-key' });
  await client.listPets({ limit: 1 }); // uses the minute's one request
  await client.listPets({ limit: 1 }); // 429, Retry-After: 1, then the SDK's retry
  expect(mock.requests().map((e) => e.status)).toEqual([200, 429, 200]);
  mock.expectWellBehaved({ warnings: true });
});
