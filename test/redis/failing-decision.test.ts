// One decision that fails inside Redis fails its own request only: the other decisions of its
// batch are answered as if it had not been there, and the health answer names the session whose
// every request fails instead of saying ok. The failure is a real one: the session's hash is a
// string in Redis, so every command on it answers WRONGTYPE.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { sessionKey } from '../../src/state-redis/keys.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();

describe.skipIf(!run)('a decision that fails inside Redis', () => {
  let redis: TestRedis;
  let client: Redis;
  let mock: SharedRunningMock;
  beforeAll(async () => {
    redis = await TestRedis.start();
    client = new Redis(redis.url);
    mock = await startMock({ state: redis.url, statePrefix: 'fd' });
  });
  afterAll(async () => {
    await mock?.close();
    client?.disconnect();
    await redis?.stop();
  });

  it('fails its own request alone; five other sessions batched with it answer as alone, and health says which session fails', async () => {
    await client.set(sessionKey('{fd}', 'broken:one'), 'not a hash');
    const good = ['s1', 's2', 's3', 's4', 's5'];
    const create = (session: string, n: number): Promise<Response> =>
      fetch(`${mock.url}/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json', 'x-mock-session': session },
        body: JSON.stringify({ name: `${session}-${n}`, categoryId: 1 }),
      });
    // Redis's own record of the calls: which sessions each one declared.
    const monitor = await client.monitor();
    const declared: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (String(args[0]).toUpperCase() === 'FCALL') declared.push(args.slice(3, 3 + Number(args[2])));
    });
    const sent: { session: string; answer: Promise<Response> }[] = [];
    for (let n = 0; n < 36; n++) for (const session of ['broken:one', ...good]) sent.push({ session, answer: create(session, n) });
    const answers = await Promise.all(sent.map(async ({ session, answer }) => ({ session, res: await answer })));
    await client.ping();
    monitor.disconnect();
    // Batched: some calls decided the failing session's requests together with the others'.
    const broken = sessionKey('{fd}', 'broken:one');
    const mixed = declared.filter((keys) => keys.includes(broken) && good.some((sid) => keys.includes(sessionKey('{fd}', sid))));
    expect(mixed.length).toBeGreaterThan(0);
    for (const { session, res } of answers.filter((a) => a.session === 'broken:one')) {
      expect(res.status, session).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code).toBe('state_unavailable');
      expect(body.message).toContain('WRONGTYPE');
    }
    for (const session of good) {
      const mine = answers.filter((a) => a.session === session);
      const ids = await Promise.all(
        mine.map(async ({ res }) => {
          expect(res.status).toBe(201);
          return ((await res.json()) as { id: number }).id;
        }),
      );
      // Each session's own id sequence, as in memory: 51 to 86, none twice, none skipped.
      expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 36 }, (_, i) => 51 + i));
      const journal = await mock.session(session).requests();
      expect(journal.map((e) => e.status)).toEqual(Array.from({ length: 36 }, () => 201));
    }
    const health = await fetch(`${mock.origin}/__admin/health`);
    expect(health.status).toBe(200);
    const report = (await health.json()) as { status: string; state: { failing?: { session: string; failures: number; reason: string }[] } };
    expect(report.status).toBe('degraded');
    expect(report.state.failing).toEqual([expect.objectContaining({ session: 'broken:one', failures: 36 })]);
    expect(report.state.failing?.[0]?.reason).toContain('WRONGTYPE');
  });

  it('a decision that fails after its session was read leaves nothing of it waited for: journal reads count only answered entries', async () => {
    const headers = { authorization: 'Bearer demo-enterprise', 'x-mock-session': 'half' };
    expect((await fetch(`${mock.url}/pets`, { headers })).status).toBe(200);
    expect(await mock.session('half').requests()).toHaveLength(1);
    // Reading a created animal now fails inside the decision, after the session's fields were read.
    await client.set(`${sessionKey('{fd}', 'half')}:p`, 'not a list');
    const sent = Array.from({ length: 30 }, (_, i) => fetch(`${mock.url}/pets${i % 3 === 0 ? '/999' : ''}`, { headers }));
    const statuses = await Promise.all(sent.map(async (answer) => (await answer).status));
    expect(statuses).toEqual(Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 503 : 200)));
    const journal = await mock.session('half').requests();
    expect(journal.filter((e) => e.status === 200)).toHaveLength(21);
    // Every entry counted as on its way has landed: no count is left for the failed decisions.
    const waiting = (await client.hget(sessionKey('{fd}', 'half'), 'jq')) ?? '';
    expect(waiting.split(',').filter((slot) => slot !== '' && !slot.endsWith(':0'))).toEqual([]);
    await client.del(`${sessionKey('{fd}', 'half')}:p`);
  });

  it('health says ok again once the session answers', async () => {
    await client.del(sessionKey('{fd}', 'broken:one'));
    const res = await fetch(`${mock.url}/pets`, { headers: { authorization: 'Bearer demo-enterprise', 'x-mock-session': 'broken:one' } });
    expect(res.status).toBe(200);
    const report = (await (await fetch(`${mock.origin}/__admin/health`)).json()) as { status: string; state: { failing?: unknown } };
    expect(report.status).toBe('ok');
    expect(report.state.failing).toBeUndefined();
  });
});
