import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, startMock, type MockOptions, type RunningMock } from '../../src/index.js';
import { call, post } from '../support/mock.js';
import { at, first } from '../support/checked.js';

describe('library options are checked, naming the option', () => {
  it.each<[string, MockOptions, RegExp]>([
    ['pets: -1', { pets: -1 }, /^petstore-mock: the option "pets" must be a whole number from 0 to 10000000, not -1\.$/],
    ['pets: 1.5', { pets: 1.5 }, /"pets" must be a whole number/],
    ['port: 70000', { port: 70_000 }, /"port" must be a whole number from 0 to 65535/],
    ['seed: "x"', { seed: 'x' as unknown as number }, /"seed" must be a whole number/],
    ['host: ""', { host: '' }, /"host" must be a non-empty string/],
    ['keys: "k:pro"', { keys: 'k:pro' as unknown as string[] }, /"keys" must be an array/],
    ['a key without a plan', { keys: [{ key: 'k' } as never] }, /"keys\[0\]\.plan" must be one of free, pro, business, enterprise, not undefined/],
    ['a key with a space', { keys: [{ key: 'a b', plan: 'pro' } as never] }, /"keys\[0\]\.key" must be a string a bearer token can hold/],
    [
      'limits of 0 a minute',
      { keys: [{ key: 'k', plan: 'pro', limits: { perMinute: 0, perDay: 5 } }] },
      /"keys\[0\]\.limits\.perMinute" must be a whole number from 1/,
    ],
    ['allowHosts: "x"', { allowHosts: 'x' as unknown as string[] }, /"allowHosts" must be an array of host names/],
    ['an allowHosts entry with a slash', { allowHosts: ['evil/x'] }, /"allowHosts\[0\]" must be a host name/],
    ['maxConnections: 0', { maxConnections: 0 }, /"maxConnections" must be a whole number from 1/],
    ['maxSessions: -3', { maxSessions: -3 }, /"maxSessions" must be a whole number from 1/],
    ['onRequest: 1', { onRequest: 1 as never }, /"onRequest" must be a function/],
  ])('%s', async (_what, options, message) => {
    await expect(startMock(options)).rejects.toThrow(message);
    expect(() => createFetchHandler(options as never)).toThrow(message);
  });

  const LISTED = 'the options are listed in docs/reference.md.';
  it.each<[string, Record<string, unknown>, string]>([
    ['key for keys', { key: ['ci:free'] }, `unknown option "key" (did you mean "keys"?) given to ENTRY; ${LISTED}`],
    ['prot for port', { prot: 3000 }, `unknown option "prot" (did you mean "port"?) given to ENTRY; ${LISTED}`],
    ['sede for seed', { sede: 7, pets: 3 }, `unknown option "sede" (did you mean "seed"?) given to ENTRY; ${LISTED}`],
    ['admintoken for adminToken', { admintoken: 's3cret' }, `unknown option "admintoken" (did you mean "adminToken"?) given to ENTRY; ${LISTED}`],
    ['a name close to none', { colour: 'red' }, `unknown option "colour" given to ENTRY; ${LISTED}`],
    ['an unknown name set to undefined', { seeds: undefined }, `unknown option "seeds" (did you mean "seed"?) given to ENTRY; ${LISTED}`],
    [
      'two unknown names, beside known ones',
      { keys: ['ci:free'], key: ['ci:pro'], prot: 0 },
      `unknown options "key" (did you mean "keys"?), "prot" (did you mean "port"?) given to ENTRY; ${LISTED}`,
    ],
    ['options that are no object', [] as never, 'the option "options" must be an object, not [].'],
  ])('refuses %s, naming it and the option meant', async (_what, options, message) => {
    const refusal = (entry: string) => expect.objectContaining({ name: 'MockOptionError', message: `petstore-mock: ${message.replace('ENTRY', entry)}` });
    await expect(startMock(options)).rejects.toEqual(refusal('startMock'));
    expect(() => createFetchHandler(options)).toThrow(refusal('createFetchHandler'));
  });

  it("takes a known option set to undefined, and startMock's own names in createFetchHandler as before", async () => {
    const options = { keys: undefined, seed: undefined, scenario: undefined, state: undefined, port: 0 };
    const mock = await startMock(options);
    try {
      expect((await call(mock, '/v1/pets?limit=1')).status).toBe(200);
    } finally {
      await mock.close();
    }
    const handler = createFetchHandler(options);
    expect((await handler(new Request('http://mock.test/v1/pets?limit=1', { headers: { authorization: 'Bearer demo-free' } }))).status).toBe(200);
  });

  it("a key given as { key, plan } gets its plan's limits and works", async () => {
    const mock = await startMock({ keys: [{ key: 'lib-key', plan: 'pro' } as never] });
    try {
      const res = await call(mock, '/v1/pets?limit=1', { key: 'lib-key' });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('300');
    } finally {
      await mock.close();
    }
  });
});

describe('bounds seen over HTTP', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ maxSessions: 2, fixtures: [{ id: Number.MAX_SAFE_INTEGER - 1, name: 'Top', categoryId: 1 }] });
  });
  afterAll(() => mock.close());

  it('a create past the last exact id is 507 store_full, as the OpenAPI document declares', async () => {
    const json = { 'content-type': 'application/json' };
    expect((await call(mock, '/v1/pets', { ...post({ name: 'Last', categoryId: 1 }), headers: json })).json.id).toBe(Number.MAX_SAFE_INTEGER);
    const res = await call(mock, '/v1/pets', { ...post({ name: 'Past', categoryId: 1 }), headers: json });
    expect(res.status).toBe(507);
    expect(res.json.code).toBe('store_full');
    mock.reset();
  });

  it('an evicted session is told so on its next answer, and GET /__admin/evictions lists it', async () => {
    const inSession = (id: string) => call(mock, '/v1/pets?limit=1', { headers: { 'x-mock-session': id } });
    await inSession('one');
    await inSession('two');
    await inSession('three');
    const listed = (await (await fetch(`${mock.origin}/__admin/evictions`)).json()) as { session: string; at: string }[];
    expect(listed).toEqual([expect.objectContaining({ session: 'one', at: expect.stringMatching(/Z$/), journalEntries: 1 })]);
    const back = await inSession('one');
    expect(back.headers.get('x-mock-session-evicted')).toBe(at(listed, 0).at);
    expect((await inSession('one')).headers.get('x-mock-session-evicted')).toBeNull();
  });

  it('a journal keeps long paths cut short and marked', async () => {
    const session = { 'x-mock-session': 'long' };
    await call(mock, `/v1/${'p'.repeat(4_000)}?${'q'.repeat(4_000)}`, { headers: session });
    const [entry] = first((await (await fetch(`${mock.origin}/__admin/requests`, { headers: session })).json()) as { path: string; query: string }[], 1);
    expect(entry).toEqual(expect.objectContaining({ status: 404, truncated: true }));
    expect(entry.path).toHaveLength(256);
    expect(entry.query).toHaveLength(256);
  });
});

describe('a ban longer than time', () => {
  it('bannedFor: 100000000d is reported and answered without a 500', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-ban-')), 'forever.yaml');
    writeFileSync(file, 'description: banned for longer than a date can hold\nusage:\n  - key: demo-free\n    bannedFor: 100000000d\n');
    const mock = await startMock({ scenario: file });
    try {
      const res = await call(mock, '/v1/pets?limit=1');
      expect(res.status).toBe(429);
      expect(res.json.code).toBe('key_banned');
      expect(res.headers.get('x-ratelimit-reset')).toBe(String(8.64e15 / 1000));
      const keys = (await (await fetch(`${mock.origin}/__admin/keys`)).json()) as { key: string; bannedUntil: string }[];
      expect(keys.find((k) => k.key === 'demo-free')?.bannedUntil).toBe('+275760-09-13T00:00:00.000Z');
    } finally {
      await mock.close();
    }
  });
});
