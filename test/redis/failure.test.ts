// Failure is loud and safe: a start without Redis exits 1 naming the URL; a Redis killed, paused
// or out of memory while running turns every answer into a 503 `state_unavailable` (never a hang,
// never a 500, never an answer from local memory), health says so, and service resumes when Redis
// can serve again. A Redis that comes back empty is not silently registered on again.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { freePort } from '../support/ports.js';
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
  const mocks: SharedRunningMock[] = [];
  let prefixes = 0;
  async function mock(): Promise<SharedRunningMock> {
    const started = await startMock({ state: redis.url, statePrefix: `failure${++prefixes}`, stateTimeoutMs: 300 });
    mocks.push(started);
    return started;
  }

  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterEach(async () => {
    for (const m of mocks.splice(0)) await m.close();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('a start that cannot reach Redis exits 1 naming the URL', () => {
    const url = `redis://127.0.0.1:${redis.port + 1}/0`;
    const result = spawnSync(process.execPath, ['dist/cli.js', '--port', '0', '--state', url], { encoding: 'utf8', timeout: 15_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`cannot reach the shared state at ${url}`);
  });

  it('a start waits for Redis to be ready: a first connection closed at once, then Redis up on that port, and it serves', async () => {
    const port = await freePort();
    // On the port first: something that closes each connection at once, as a server not yet ready may.
    let touched!: () => void;
    const closedOne = new Promise<void>((resolve) => (touched = resolve));
    const closer = createServer((socket) => {
      socket.destroy();
      touched();
    });
    await new Promise<void>((resolve) => closer.listen(port, '127.0.0.1', resolve));
    const starting = startMock({ state: `redis://127.0.0.1:${port}/0`, statePrefix: 'late', stateTimeoutMs: 300 });
    await closedOne;
    await new Promise<void>((resolve) => closer.close(() => resolve()));
    const late = await TestRedis.start(port);
    try {
      const m = await starting;
      mocks.push(m);
      expect((await get(m, '/v1/pets?limit=1')).status).toBe(200);
    } finally {
      for (const m of mocks.splice(0)) await m.close();
      await late.kill();
    }
  });

  it('killed: every answer is a 503 with Retry-After and health says so; back empty, the replica does not found a new world', async () => {
    const m = await mock();
    expect((await get(m, '/v1/pets?limit=1')).status).toBe(200);
    await redis.kill();
    expectUnavailable(await get(m, '/v1/pets?limit=1'), redis.url);
    expectUnavailable(await get(m, '/v1/pets/1'), redis.url);
    const health = await fetch(`${m.origin}/__admin/health`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { state: unknown }).state).toEqual({ engine: 'redis', url: redis.url, prefix: m.statePrefix, reachable: false });
    const adminCall = await fetch(`${m.origin}/__admin/requests`);
    expect(adminCall.status).toBe(503);
    await redis.launch();
    // The restarted Redis is empty: ids would start over at 51, so the replica stops and says why.
    let reply = await get(m, '/v1/pets?limit=1');
    for (let i = 0; i < 100 && !String(reply.json.message).includes('is gone'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      reply = await get(m, '/v1/pets?limit=1');
    }
    expectUnavailable(reply, redis.url);
    expect(reply.json.message).toContain(`the deployment ${m.statePrefix} this replica joined is gone`);
    expect(reply.json.message).toContain('restart it');
    expect(redis.cli('EXISTS', `${m.statePrefix}:deploy`)).toBe('0');
    expect((await fetch(`${m.origin}/__admin/health`)).status).toBe(503);
    // A replica started now founds the new world.
    const fresh = await startMock({ state: redis.url, statePrefix: m.statePrefix.slice(1, -1) });
    mocks.push(fresh);
    expect((await get(fresh, '/v1/pets?limit=1')).status).toBe(200);
    expect(redis.cli('HGET', `${m.statePrefix}:deploy`, 'seed')).toBe('42');
  });

  it('paused (SIGSTOP): answers are 503 after the command timeout instead of hanging, and resume on SIGCONT', async () => {
    const m = await mock();
    expect(await recovered(m)).toBe(200);
    redis.pause();
    try {
      const first = await get(m, '/v1/pets?limit=1');
      expectUnavailable(first, redis.url);
      expect(first.json.message).toContain('no answer within the command timeout');
      // The timed-out connection was dropped (commands behind it would run late): the next answer
      // says so at once rather than wait for the same timeout.
      const next = await get(m, '/v1/pets?limit=1');
      expectUnavailable(next, redis.url);
      expect(next.json.message).toContain('not connected; reconnecting');
    } finally {
      redis.resume();
    }
    expect(await recovered(m)).toBe(200);
  });

  it('paused with creates in flight: those answered 503 are not stored once Redis resumes and reads them (the call carries its deadline)', async () => {
    const m = await mock();
    expect(await recovered(m)).toBe(200);
    const create = (n: number): Promise<Response> =>
      fetch(`${m.url}/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json' },
        body: JSON.stringify({ name: `late${n}`, categoryId: 1 }),
      });
    redis.pause();
    let statuses: number[];
    try {
      // Sent to a Redis that does not read: the commands wait in its socket, and each answer is a 503.
      statuses = (await Promise.all(Array.from({ length: 5 }, (_, n) => create(n)))).map((r) => r.status);
    } finally {
      redis.resume();
    }
    expect(statuses).toEqual([503, 503, 503, 503, 503]);
    expect(await recovered(m)).toBe(200);
    // Redis ran what was in its socket when it resumed, past the deadline: nothing was stored.
    expect(redis.cli('LLEN', `${m.statePrefix}:s:default:p`)).toBe('0');
    const next = await create(99);
    expect(next.status).toBe(201);
    expect(((await next.json()) as { id: number }).id).toBe(51);
  });

  it('out of memory (maxmemory, noeviction): 503 in the mock own words and health 503, then serves again', async () => {
    const m = await mock();
    // The first calls may outlast the 300 ms deadline on a loaded machine (a full run met a 503
    // there): wait for the mock to serve, and count the 503s of the out-of-memory Redis from then.
    expect(await recovered(m)).toBe(200);
    const unavailable = async (): Promise<number> =>
      Number(
        /^petstore_mock_requests_total\{status="503",code="state_unavailable",plan="pro"\} (\d+)$/m.exec(
          await (await fetch(`${m.origin}/__admin/metrics`)).text(),
        )?.[1] ?? 0,
      );
    const before = await unavailable();
    redis.cli('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
    redis.cli('CONFIG', 'SET', 'maxmemory', '1');
    try {
      const reply = await get(m, '/v1/pets?limit=1');
      expectUnavailable(reply, redis.url);
      expect(reply.json.message).toContain('Redis is out of memory');
      expect(reply.json.message).not.toMatch(/OOM command|maxRetriesPerRequest|please report/i);
      const health = await fetch(`${m.origin}/__admin/health`);
      expect(health.status).toBe(503);
      expect(((await health.json()) as { error: string }).error).toContain('out of memory');
      // An operator watching the metrics sees the state down and why.
      const metrics = await (await fetch(`${m.origin}/__admin/metrics`)).text();
      expect(metrics).toContain('petstore_mock_state_up 0');
      expect(Number(/petstore_mock_state_errors_total\{kind="oom"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(2);
      expect(await unavailable()).toBe(before + 1);
    } finally {
      redis.cli('CONFIG', 'SET', 'maxmemory', '0');
    }
    expect(await recovered(m)).toBe(200);
    expect((await fetch(`${m.origin}/__admin/health`)).status).toBe(200);
  });
});
