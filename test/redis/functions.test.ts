// How the scripts reach Redis: one function library loaded once (FCALL per request), loaded again
// when Redis lost it, EVALSHA where functions cannot be loaded; and the API script reading the
// optional input fields a caller leaves out as empty.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, type SharedFetchHandler } from '../../src/index.js';
import { leanInput } from '../../src/state-redis/api-input.js';
import { answersOf } from '../../src/state-redis/answers.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();
const AUTH = { authorization: 'Bearer demo-pro' };

/** Calls of one command since the last CONFIG RESETSTAT. */
function calls(redis: TestRedis, command: string): number {
  const line = redis
    .cli('INFO', 'commandstats')
    .split('\n')
    .find((l) => l.startsWith(`cmdstat_${command}:`));
  return Number(/calls=(\d+)/.exec(line ?? '')?.[1] ?? 0);
}

async function list(handler: SharedFetchHandler): Promise<number> {
  const res = await handler(new Request('http://mock/v1/pets?limit=5', { headers: AUTH }));
  await res.arrayBuffer();
  return res.status;
}

describe.skipIf(!run)('the scripts on Redis', () => {
  let redis: TestRedis;
  let handler: SharedFetchHandler;

  beforeAll(async () => {
    redis = await TestRedis.start();
    handler = createFetchHandler({ state: redis.url, statePrefix: 'fn' });
    await handler.ready();
  });
  afterAll(async () => {
    await handler?.close();
    await redis?.stop();
  });

  it('loads them once as a function library and runs one FCALL per API request, no EVALSHA', async () => {
    expect(redis.cli('FUNCTION', 'LIST')).toMatch(/petstore_mock_[0-9a-f]{12}/);
    redis.cli('CONFIG', 'RESETSTAT');
    for (let i = 0; i < 10; i++) expect(await list(handler)).toBe(200);
    expect(calls(redis, 'fcall')).toBeGreaterThanOrEqual(10);
    expect(calls(redis, 'evalsha')).toBe(0);
    expect(calls(redis, 'eval')).toBe(0);
  });

  it('loads the library again when Redis lost it (a restart without persistence), and the request is answered', async () => {
    redis.cli('FUNCTION', 'FLUSH');
    expect(redis.cli('FUNCTION', 'LIST')).toBe('');
    expect(await list(handler)).toBe(200);
    expect(redis.cli('FUNCTION', 'LIST')).toMatch(/petstore_mock_[0-9a-f]{12}/);
  });

  it('runs the scripts with EVALSHA when the Redis user may not load functions', async () => {
    redis.cli('ACL', 'SETUSER', 'nofn', 'on', '>secret', '~*', '&*', '+@all', '-function');
    const limited = createFetchHandler({ state: `redis://nofn:secret@127.0.0.1:${redis.port}/0`, statePrefix: 'fn' });
    try {
      await limited.ready();
      redis.cli('CONFIG', 'RESETSTAT');
      for (let i = 0; i < 5; i++) expect(await list(limited)).toBe(200);
      // The first call of a script Redis does not hold yet is an EVAL; ioredis sends EVALSHA after it.
      expect(calls(redis, 'evalsha') + calls(redis, 'eval')).toBeGreaterThanOrEqual(5);
      expect(calls(redis, 'fcall')).toBe(0);
    } finally {
      await limited.close();
    }
  });

  it('reads optional input fields left out as empty, false or 0: the same answers as with them written out', async () => {
    const name = /petApi_[0-9a-f]{12}/.exec(redis.cli('FUNCTION', 'LIST'))?.[0] as string;
    const client = new Redis({ host: '127.0.0.1', port: redis.port, lazyConnect: true });
    await client.connect();
    try {
      const base = { mode: 'take', bucket: 'key:demo-pro', lim: [60_000, 1000, 86_400_000, 100000], set: 'start', max: 1000 };
      const full = {
        ...base,
        enforce: 'no',
        removalAt: 0,
        rule: { after: 0, ms: 0, inFlight: 0 },
        steps: '',
        times: [],
        rep: false,
        chaos: [],
        lat: false,
        op: '',
        status: '',
        count: 0,
        index: 0,
        tail: '',
        bytes: 0,
        maxCreated: 0,
        maxBytes: 0,
        journal: [],
      };
      const decide = async (sid: string, input: object): Promise<Record<string, unknown>> => {
        const raw = await client.fcall(name, 1, `{fn}:s:${sid}`, '{fn}', JSON.stringify({ ...input, sid }));
        const [answer] = answersOf(raw).answers;
        const { now: _now, real: _real, ep: _ep, ...rest } = answer as Record<string, unknown>;
        return rest;
      };
      const cases: [object, object][] = [
        [{}, {}],
        [
          { op: 'list', count: 2 },
          { op: 'list', count: 2 },
        ],
        [
          { op: 'create', tail: ',"name":"A","categoryId":1}', bytes: 40, maxCreated: 10, maxBytes: 4096 },
          { op: 'create', tail: ',"name":"A","categoryId":1}', bytes: 40, maxCreated: 10, maxBytes: 4096 },
        ],
        [{ op: 'get', index: 0 }, { op: 'get' }],
        [{ op: 'create', bytes: 0, maxCreated: 0, maxBytes: 0 }, { op: 'create' }],
        [
          { enforce: 'yes', lim: [60_000, 0, 86_400_000, 100000], rule: { after: 0, ms: 0, inFlight: 0 } },
          { enforce: 'yes', lim: [60_000, 0, 86_400_000, 100000] },
        ],
      ];
      for (const [i, [written, left]] of cases.entries()) {
        const answer = await decide(`full${i}`, { ...full, ...written });
        expect(answer.st).toBe('ok');
        expect(await decide(`left${i}`, { ...base, ...left })).toEqual(answer);
      }
    } finally {
      client.disconnect();
    }
  });

  it('sends the input lean: empty optional fields and a removal date the limit does not use are left out, required zeros kept', () => {
    const input = {
      mode: 'take',
      bucket: 'ip:1',
      lim: [60_000, 0, 86_400_000, 10],
      enforce: 'yes',
      removalAt: 5,
      steps: '',
      times: [],
      rep: false,
      count: 0,
      op: 'list',
      rule: { after: 0, ms: 0, inFlight: 0 },
    };
    expect(leanInput(input)).toEqual({
      mode: 'take',
      bucket: 'ip:1',
      lim: [60_000, 0, 86_400_000, 10],
      enforce: 'yes',
      op: 'list',
      rule: { after: 0, ms: 0, inFlight: 0 },
    });
    expect(leanInput({ ...input, removal: true })).toMatchObject({ removal: true, removalAt: 5 });
    expect(leanInput({ ...input, removal: false })).not.toHaveProperty('removal');
  });
});
