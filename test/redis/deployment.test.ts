// One deployment identity, and a deployment's life: everything that shapes the world must agree
// (refusals name the flag and both values, never a secret), a deployment lives while a replica's
// heartbeat keeps it, new flags then start a new world, `state clear` removes one, and a start
// that fails registers nothing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { cliLauncher } from '../e2e/cli.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();

describe.skipIf(!run)('a deployment in Redis', () => {
  let redis: TestRedis;
  let dir: string;
  const mocks: SharedRunningMock[] = [];
  let prefixes = 0;
  const cli = cliLauncher();
  const prefix = (): string => `dep${++prefixes}`;
  async function replica(statePrefix: string, options: Record<string, unknown> = {}): Promise<SharedRunningMock> {
    const m = await startMock({ state: redis.url, statePrefix, ...options });
    mocks.push(m);
    return m;
  }
  async function create(m: SharedRunningMock): Promise<{ status: number; body: any }> {
    const res = await fetch(`${m.url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json' },
      body: '{"name":"Kept","categoryId":1}',
    });
    return { status: res.status, body: await res.json() };
  }

  beforeAll(async () => {
    redis = await TestRedis.start();
    dir = mkdtempSync(join(tmpdir(), 'petstore-deploy-'));
  });
  afterEach(async () => {
    for (const m of mocks.splice(0)) await m.close();
  });
  afterAll(async () => {
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a replica whose scenario text is the same but whose fixtures' content differs, showing both", async () => {
    for (const [host, names] of [
      ['one', ['Atlas', 'Clover']],
      ['two', ['Zed', 'Yak', 'Xu']],
    ] as const) {
      mkdirSync(join(dir, host));
      writeFileSync(join(dir, host, 'pets.json'), JSON.stringify(names.map((name, i) => ({ id: i + 1, name, categoryId: 1 }))));
      writeFileSync(join(dir, host, 'same.yaml'), 'description: same text on both hosts\ndata:\n  fixtures: pets.json\n');
    }
    const p = prefix();
    await replica(p, { scenario: join(dir, 'one', 'same.yaml') });
    const refused = startMock({ state: redis.url, statePrefix: p, scenario: join(dir, 'two', 'same.yaml') });
    await expect(refused).rejects.toThrow(
      'other animals in the fixtures file of --scenario (data.fixtures) than this replica (the deployment has 2 animals, content',
    );
    await expect(refused).rejects.toThrow('this replica 3 animals, content');
  });

  it('a session switched to a scenario whose fixtures read differently on another replica is not served there from other animals', async () => {
    const p = prefix();
    const [a, b] = [await replica(p), await replica(p)];
    mkdirSync(join(dir, 'switch'));
    const fixtures = join(dir, 'switch', 'pets.json');
    writeFileSync(fixtures, JSON.stringify([{ id: 1, name: 'Atlas', categoryId: 1 }]));
    writeFileSync(join(dir, 'switch', 'switch.yaml'), 'description: switched to\ndata:\n  fixtures: pets.json\n');
    await a.session('sw').useScenario(join(dir, 'switch', 'switch.yaml'));
    // The replica that has not read the file yet finds other content there, as on another host.
    writeFileSync(fixtures, JSON.stringify([{ id: 1, name: 'Zed', categoryId: 1 }]));
    const res = await fetch(`${b.url}/pets`, { headers: { authorization: 'Bearer demo-pro', 'x-mock-session': 'sw' } });
    expect(res.status).toBe(503);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('state_unavailable');
    expect(body.message).toContain('with other content than the replica that switched the session to it');
    const own = await fetch(`${a.url}/pets`, { headers: { authorization: 'Bearer demo-pro', 'x-mock-session': 'sw' } });
    expect(((await own.json()) as { name: string }[]).map((pet) => pet.name)).toEqual(['Atlas']);
  });

  it('refuses an unprotected replica of a protected deployment (and another token), never showing a token', async () => {
    const p = prefix();
    await replica(p, { adminToken: 'first-Secret-token' });
    const open = startMock({ state: redis.url, statePrefix: p });
    await expect(open).rejects.toThrow(
      'was started with another --admin-token than this replica (the deployment was started with an --admin-token, this replica without an --admin-token)',
    );
    const other = startMock({ state: redis.url, statePrefix: p, adminToken: 'second-Secret-token' });
    await expect(other).rejects.toThrow('(the deployment was started with another one)');
    for (const attempt of [open, other]) {
      const message = await attempt.then(
        () => '',
        (error: Error) => error.message,
      );
      expect(message).not.toMatch(/Secret-token/);
    }
  });

  it('names --scenario (not --key) for a replica started with a scenario the deployment lacks, with both values', async () => {
    const p = prefix();
    await replica(p);
    await expect(startMock({ state: redis.url, statePrefix: p, scenario: 'ban' })).rejects.toThrow(
      /another --scenario than this replica \(the deployment has none, this replica ban \(.*ban\.yaml, text [0-9a-f]{16}\)\)/,
    );
    await expect(startMock({ state: redis.url, statePrefix: p, seed: 7 })).rejects.toThrow(
      'another --seed than this replica (the deployment has 42, this replica 7)',
    );
    await expect(startMock({ state: redis.url, statePrefix: p, keys: ['extra-key:pro'] })).rejects.toThrow(
      'another --key than this replica (the deployment has nothing where this replica has extr…key:pro:300/m,10000/d)',
    );
  });

  it('lives while a replica keeps it: with the same flags the world goes on, with new flags a new one starts', async () => {
    const p = prefix();
    const first = await replica(p);
    expect((await create(first)).body.id).toBe(51);
    await first.close();
    mocks.splice(mocks.indexOf(first), 1);
    const again = await replica(p);
    expect((await create(again)).body.id).toBe(52);
    await again.close();
    mocks.splice(mocks.indexOf(again), 1);
    const changed = await replica(p, { seed: 9, keys: ['extra-key:pro'] });
    expect((await create(changed)).body.id).toBe(51);
    expect(redis.cli('HGET', `{${p}}:deploy`, 'seed')).toBe('9');
  });

  it('counts a replica alive until its heartbeat expires (a crashed one holds the deployment only that long)', async () => {
    const p = prefix();
    const first = await replica(p);
    await first.close();
    mocks.splice(mocks.indexOf(first), 1);
    // A replica that crashed left its entry behind: its expiry, in Redis time, decides.
    const now = Number(redis.cli('TIME').split('\n')[0]) * 1000;
    redis.cli('HSET', `{${p}}:replicas`, 'crashed:1', String(now + 60_000));
    await expect(startMock({ state: redis.url, statePrefix: p, seed: 9 })).rejects.toThrow('another --seed');
    redis.cli('HSET', `{${p}}:replicas`, 'crashed:1', String(now - 1));
    await replica(p, { seed: 9 });
  });

  it('registers nothing when the start fails (port in use)', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const p = prefix();
    try {
      await expect(startMock({ state: redis.url, statePrefix: p, port, seed: 3 })).rejects.toThrow(String(port));
    } finally {
      taken.close();
    }
    expect(redis.cli('EXISTS', `{${p}}:deploy`)).toBe('0');
    await replica(p, { seed: 4 });
  });

  it('state clear removes a deployment; while a replica keeps it alive only with --force, and that replica then stops', async () => {
    const p = prefix();
    const live = await replica(p);
    expect((await create(live)).status).toBe(201);
    const refused = cli('state', 'clear', '--state', redis.url, '--state-prefix', p);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toContain(`petstore-mock: 1 replica keeps the deployment {${p}} in ${redis.url} alive`);
    expect(redis.cli('EXISTS', `{${p}}:deploy`)).toBe('1');
    const forced = cli('state', 'clear', '--state', redis.url, '--state-prefix', p, '--force');
    expect(await forced.exited).toBe(0);
    expect(forced.stdout()).toMatch(new RegExp(`^petstore-mock: removed the deployment \\{${p}\\} from ${redis.url} \\(\\d+ keys\\)`));
    expect(redis.cli('--scan', '--pattern', `{${p}}*`)).toBe('');
    const after = await create(live);
    expect(after.status).toBe(503);
    expect(after.body.message).toContain('this replica joined is gone');
    const empty = cli('state', 'clear', '--state', redis.url, '--state-prefix', p);
    expect(await empty.exited).toBe(0);
    expect(empty.stdout()).toContain('nothing was stored under the prefix');
  });

  it('GET /__admin/metrics adds the Redis series: state up, round trips, failures by kind', async () => {
    const m = await replica(prefix());
    await create(m);
    const text = await (await fetch(`${m.origin}/__admin/metrics`)).text();
    expect(text).toContain('petstore_mock_state_up 1');
    expect(text).toMatch(/^petstore_mock_requests_total\{status="201",code="",plan="[a-z]+"\} 1$/m);
    expect(text).toMatch(/^petstore_mock_build_info\{version="[^"]+",node_version="[^"]+",state="redis"\} 1$/m);
    // The deployment's sessions, shown by this replica as the deployment's only (so first) one.
    expect(text).toMatch(/^petstore_mock_deployment_sessions \d+$/m);
    expect(text).not.toMatch(/^petstore_mock_sessions /m);
    expect(text).toContain('petstore_mock_state_errors_total{kind="oom"} 0');
    expect(Number(/petstore_mock_redis_roundtrip_seconds_count (\d+)/.exec(text)?.[1])).toBeGreaterThanOrEqual(2);
    expect(text).toContain('# TYPE petstore_mock_redis_roundtrip_seconds histogram');
  });
});
