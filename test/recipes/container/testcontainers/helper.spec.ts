// helper.spec.ts: the same, with petstore-mock's own Testcontainers module.
import { PetstoreMockContainer, type StartedPetstoreMockContainer } from 'petstore-mock/testcontainers';
import { afterAll, beforeAll, expect, test } from 'vitest';

let mock: StartedPetstoreMockContainer;

beforeAll(async () => {
  // Waits until GET /__admin/health answers 200.
  mock = await new PetstoreMockContainer('localhost/petstore-mock:local').withScenario('ban').start();
}, 120_000);

afterAll(async () => {
  await mock?.stop();
});

test('is ready when start() returns, at mock.url', async () => {
  expect((await fetch(mock.healthUrl)).status).toBe(200);
  const first = await fetch(`${mock.url}/pets`, { headers: { Authorization: 'Bearer demo-free' } });
  expect(first.status).toBe(200);
  expect(first.headers.get('x-ratelimit-limit')).toBe('5');
  const scenario = await fetch(`${mock.origin}/__admin/scenario`);
  expect(((await scenario.json()) as { name: string }).name).toBe('ban');
});

test('is driven from the test through connectMock()', async () => {
  const remote = await mock.connectMock();
  await remote.clock.freeze();
  await remote.clock.set('2026-01-01T00:00:30Z');
  expect((await remote.clock.now()).toISOString()).toBe('2026-01-01T00:00:30.000Z');
  await fetch(`${mock.url}/pets`, { headers: { Authorization: 'Bearer demo-free' } });
  expect((await remote.requests()).length).toBeGreaterThan(0);
});
