// Failure is loud and safe: a start without Redis exits 1 naming the URL; a Redis killed or paused
// while running turns every answer into a 503 `state_unavailable` (never a hang, never an answer
// from local memory), and service resumes when Redis is back.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { TestRedis, redisAvailable } from '../support/redis.js';
import { responseProblem } from '../support/openapi-check.js';

const run = redisAvailable();

async function get(mock: SharedRunningMock, path: string): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await fetch(`${mock.origin}${path}`, { headers: { authorization: 'Bearer demo-pro' } });
  const text = await res.text();
  // Every answer, the 503s included, is one the OpenAPI document declares.
  expect(responseProblem('GET', path.split('?')[0] ?? path, res.status, res.headers, text)).toBeUndefined();
  return { status: res.status, json: JSON.parse(text), headers: res.headers };
}

/** Asks until the mock answers 200 again; reconnecting takes Redis's start and one retry of the client. */
async function recovered(mock: SharedRunningMock): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const { status } = await get(mock, '/v1/pets?limit=1');
    if (status === 200) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return 503;
}

function expectUnavailable(reply: { status: number; json: any; headers: Headers }, url: string): void {
  expect(reply.status).toBe(503);
  expect(reply.json.code).toBe('state_unavailable');
  expect(reply.json.message).toContain(url);
  expect(reply.headers.get('retry-after')).toBe('1');
}

describe.skipIf(!run)('when Redis fails', () => {
  let redis: TestRedis;
  let mock: SharedRunningMock;

  beforeAll(async () => {
    redis = await TestRedis.start();
    mock = await startMock({ state: redis.url, statePrefix: 'failure', stateTimeoutMs: 300 });
  });
  afterAll(async () => {
    await mock?.close();
    await redis?.stop();
  });

  it('a start that cannot reach Redis exits 1 naming the URL', () => {
    const url = `redis://127.0.0.1:${redis.port + 1}/0`;
    const result = spawnSync(process.execPath, ['dist/cli.js', '--port', '0', '--state', url], { encoding: 'utf8', timeout: 15_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`cannot reach the shared state at ${url}`);
  });

  it('killed: every API answer is a 503 state_unavailable with Retry-After, health says so, and service resumes after a restart', async () => {
    expect((await get(mock, '/v1/pets?limit=1')).status).toBe(200);
    await redis.kill();
    expectUnavailable(await get(mock, '/v1/pets?limit=1'), redis.url);
    expectUnavailable(await get(mock, '/v1/pets/1'), redis.url);
    const health = await fetch(`${mock.origin}/__admin/health`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { state: unknown }).state).toEqual({ engine: 'redis', url: redis.url, prefix: '{failure}', reachable: false });
    const adminCall = await fetch(`${mock.origin}/__admin/requests`);
    expect(adminCall.status).toBe(503);
    await redis.launch();
    expect(await recovered(mock)).toBe(200);
    // The restarted Redis was empty: the instance registered the deployment again.
    expect(redis.cli('HGET', '{failure}:deploy', 'seed')).toBe('42');
  });

  it('paused (SIGSTOP): answers are 503 after the command timeout instead of hanging, and resume on SIGCONT', async () => {
    expect(await recovered(mock)).toBe(200);
    redis.pause();
    try {
      expectUnavailable(await get(mock, '/v1/pets?limit=1'), redis.url);
      expect((await get(mock, '/v1/pets?limit=1')).json.message).toContain('no answer within the command timeout');
    } finally {
      redis.resume();
    }
    expect(await recovered(mock)).toBe(200);
  });
});
