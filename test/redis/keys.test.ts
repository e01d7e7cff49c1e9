// Sessions are isolated on Redis as in memory: a session id (or a scenario's name) enters a key
// name only encoded, so no id reaches another session's keys or the deployment's own. The
// encoding is checked as a property (injective, nothing of a key's syntax left, the Lua twin in
// a real Redis gives the same names), and the reported case is replayed against a real deployment.
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, startMock, type SharedRunningMock } from '../../src/index.js';
import { keyPart, sessionKeys } from '../../src/state-redis/keys.js';
import { LIBRARY } from '../../src/state-redis/lua-library.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();

/** Ids an attacker or an unlucky test suite may send: the suffixes of another session's keys, hash tags, globs, spaces, non-ASCII, the longest id. */
export const HOSTILE_IDS = [
  'default',
  'default:jp',
  'default:j',
  'default:p',
  'default:p:sold',
  'default:bo',
  'a:s:default',
  '{petstore-mock}',
  'x}{y',
  '*',
  'a b',
  'café-☕',
  '%3A',
  'default%3Ajp',
  ':'.repeat(128),
  `${'a:'.repeat(63)}jp`,
  'Z'.repeat(128),
];

/** keyPart's inverse: it exists, so keyPart is injective. */
function decode(part: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < part.length; i++) {
    if (part[i] === '%') {
      bytes.push(parseInt(part.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(part.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('utf8');
}

const anyId = fc.oneof(
  fc.constantFrom(...HOSTILE_IDS),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 128 }),
);

describe('key names of user-given texts', () => {
  it('are injective and hold none of a key name syntax (: { } * % unescaped, spaces)', () => {
    fc.assert(
      fc.property(anyId, (id) => {
        const part = keyPart(id);
        expect(part).toMatch(/^([A-Za-z0-9._-]|%[0-9A-F]{2})*$/);
        expect(decode(part)).toBe(id);
      }),
      { numRuns: 2000 },
    );
  });

  it('never give two sessions a key in common, nor one of the deployment own keys', () => {
    const own = ['deploy', 'replicas', 'sessions', 'lru', 'epoch', 'evictions', 'evicted', 'init:start'].map((k) => `{P}:${k}`);
    fc.assert(
      fc.property(anyId, anyId, (a, b) => {
        fc.pre(a !== b);
        const keysA = sessionKeys('{P}', a);
        const keysB = new Set([...sessionKeys('{P}', b), ...own]);
        for (const key of keysA) expect(keysB.has(key)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe.skipIf(!run)('sessions on a real Redis', () => {
  let redis: TestRedis;
  let client: Redis;
  const mocks: SharedRunningMock[] = [];
  beforeAll(async () => {
    redis = await TestRedis.start();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    for (const m of mocks) await m.close();
    client?.disconnect();
    await redis?.stop();
  });

  it('encodes in Lua exactly as in TypeScript', async () => {
    const ids = fc.sample(anyId, 300).concat(HOSTILE_IDS);
    const lua = `${LIBRARY}\nlocal out = {}\nfor i = 2, #ARGV do out[#out + 1] = enc(ARGV[i]) end\nreturn out`;
    const names = (await client.eval(lua, 0, '{P}', ...ids)) as string[];
    expect(names).toEqual(ids.map(keyPart));
  });

  it('X-Mock-Session: default:jp without a key changes nothing of the default session (the reported case)', async () => {
    const mock = await startMock({ state: redis.url, statePrefix: 'repro' });
    mocks.push(mock);
    const created = await fetch(`${mock.url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    const before = await client.keys('{repro}:s:default*');
    const types = async (): Promise<string[]> => Promise.all(before.sort().map(async (k) => `${k} ${await client.type(k)}`));
    const typesBefore = await types();
    for (const method of ['GET', 'OPTIONS']) {
      const res = await fetch(`${mock.url}/pets`, { method, headers: { 'x-mock-session': 'default:jp' } });
      expect([401, 204]).toContain(res.status);
    }
    expect(await types()).toEqual(typesBefore);
    const list = await fetch(`${mock.url}/pets?limit=100`, { headers: { authorization: 'Bearer demo-enterprise' } });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { name: string }[]).map((p) => p.name)).toContain('Rex');
    const health = await fetch(`${mock.origin}/__admin/health`);
    expect(health.status).toBe(200);
  });

  it('keeps every pair of sessions apart, whatever their ids (the property over a real deployment)', async () => {
    const handle = createFetchHandler({ state: redis.url, statePrefix: 'pairs' });
    await handle.ready();
    const valid = fc.oneof(fc.constantFrom(...HOSTILE_IDS.filter((id) => /^[A-Za-z0-9._:-]{1,128}$/.test(id))), fc.stringMatching(/^[a-z:]{1,12}$/));
    let round = 0;
    await fc.assert(
      fc.asyncProperty(valid, valid, async (a, b) => {
        fc.pre(a !== b);
        const name = `pet-${++round}`;
        const send = (sid: string, init: RequestInit = {}): Promise<Response> =>
          handle(
            new Request('http://mock/v1/pets?limit=100', {
              ...init,
              headers: { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json', 'x-mock-session': sid },
            }),
          );
        const created = await send(a, { method: 'POST', body: JSON.stringify({ name, categoryId: 2 }) });
        expect(created.status).toBe(201);
        const other = await send(b);
        expect(other.status).toBe(200);
        expect(((await other.json()) as { name: string }[]).map((p) => p.name)).not.toContain(name);
        const own = await send(a);
        expect(((await own.json()) as { name: string }[]).map((p) => p.name)).toContain(name);
      }),
      { numRuns: 40 },
    );
    await handle.close();
  });
});
