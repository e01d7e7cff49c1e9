// The command lines of a replicated deployment: two CLI processes on one Redis are one mock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliLauncher, waitFor } from '../e2e/cli.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();

describe.skipIf(!run)('petstore-mock --state', () => {
  let redis: TestRedis;
  const start = cliLauncher('--port', '0', '--ready-json');

  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('two replicas started with the same --state serve one world', async () => {
    const replicas = [start('--state', redis.url), start('--state', redis.url)];
    const origins = await Promise.all(replicas.map(async (r) => (JSON.parse((await waitFor(r, /^\{.*\}$/m))[0]) as { origin: string }).origin));
    // Frozen through one replica, so both count in the same minute window whatever the wall clock does.
    await fetch(`${origins[1]}/__admin/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"frozen":true,"set":"2026-03-10T12:00:00Z"}',
    });
    expect(await (await fetch(`${origins[0]}/__admin/clock`)).json()).toEqual({ now: '2026-03-10T12:00:00.000Z', frozen: true });
    const created = await fetch(`${origins[0]}/v1/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-free', 'content-type': 'application/json' },
      body: '{"name":"Both","categoryId":1}',
    });
    expect(created.status).toBe(201);
    const got = await fetch(`${origins[1]}/v1/pets/51`, { headers: { authorization: 'Bearer demo-free' } });
    expect(await got.json()).toEqual({ id: 51, name: 'Both', categoryId: 1 });
    // One minute window for the key across both: 60 per minute on the free plan, two used.
    expect(got.headers.get('x-ratelimit-remaining')).toBe('58');
  });

  it('refuses --state-prefix without --state, and a prefix that is no hash-tag name', async () => {
    const alone = start('--state-prefix', 'x');
    expect(await alone.exited).toBe(1);
    expect(alone.stderr()).toContain('--state-prefix names a deployment in Redis and needs --state');
    const braces = start('--state', redis.url, '--state-prefix', 'a{b}');
    expect(await braces.exited).toBe(1);
    expect(braces.stderr()).toContain('--state-prefix must be 1 to 64 letters');
  });
});
