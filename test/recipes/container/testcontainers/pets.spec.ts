// pets.spec.ts: petstore-mock in a container for this test file, started by Testcontainers.
import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, expect, test } from 'vitest';

let mock: StartedTestContainer;
let origin: string;

beforeAll(async () => {
  // The address the tests reach the container at (a gateway address when the tests themselves
  // run in a container): the admin API must answer to it as well as to `petstore`.
  const { host } = (await getContainerRuntimeClient()).info.containerRuntime;
  mock = await new GenericContainer('localhost/petstore-mock:local')
    .withExposedPorts(4010)
    .withEnvironment({ PETSTORE_MOCK_ALLOW_HOST: `petstore,${host}` })
    .withWaitStrategy(Wait.forHttp('/__admin/health', 4010))
    .start();
  origin = `http://${mock.getHost()}:${mock.getMappedPort(4010)}`;
}, 120_000);

afterAll(async () => {
  await mock?.stop();
});

test('lists animals, then sees the ban scenario the admin API switched to', async () => {
  const res = await fetch(`${origin}/v1/pets?limit=3`, { headers: { Authorization: 'Bearer demo-free' } });
  expect(res.status).toBe(200);
  expect(await res.json()).toHaveLength(3);

  const switched = await fetch(`${origin}/__admin/scenario`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'ban' }),
  });
  expect(switched.status).toBe(200);
  const first = await fetch(`${origin}/v1/pets`, { headers: { Authorization: 'Bearer demo-free' } });
  expect(first.headers.get('x-ratelimit-limit')).toBe('5');
});
