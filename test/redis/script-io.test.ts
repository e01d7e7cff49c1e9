// Every script but the API's and the admin's (which have tests of their own) takes the prefix and
// one JSON object of named fields and answers one JSON object: each called here on a real Redis
// with the input its caller builds, its raw answer read as JSON and held to its fields.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StateConnection } from '../../src/state-redis/connection.js';
import { absentKey, initKey, journalKeys, scenarioKey, sessionKey } from '../../src/state-redis/keys.js';
import type { ClearInput, JoinInput, JournalInput, LeaveInput, SettingsInput } from '../../src/state-redis/script-io.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();
const P = '{sio}';
const RECORD = [`${P}:deploy`, `${P}:replicas`, absentKey(P)];
const JOIN_KEYS = [...RECORD, initKey(P, 'start')];
const FIELDS = [
  { field: 'format', value: '5', shown: 'shared-state format 5' },
  { field: 'seed', value: '1', shown: '1' },
];
const join = (over: Partial<JoinInput>): JoinInput => ({
  replica: 'r1',
  expiryMs: 30_000,
  joined: '',
  fresh: 'w1',
  init: '{}',
  mode: 'join',
  fields: FIELDS,
  ...over,
});

describe.skipIf(!run)('the scripts take and answer named fields', () => {
  let redis: TestRedis;
  let conn: StateConnection;
  let direct: Redis;
  beforeAll(async () => {
    redis = await TestRedis.start();
    conn = await StateConnection.open(redis.url);
    direct = new Redis(redis.url);
  });
  afterAll(async () => {
    direct?.disconnect();
    await conn?.close();
    await redis?.stop();
  });

  /** The script's raw answer: it must be the text of one JSON object. */
  async function call(
    script: 'petJoin' | 'petLeave' | 'petClear' | 'petSettings' | 'petJournal',
    keys: string[],
    input: object,
    texts: string[] = [],
  ): Promise<unknown> {
    const raw = await conn.run(script, keys, [P, JSON.stringify(input), ...texts]);
    expect(typeof raw).toBe('string');
    const answer: unknown = JSON.parse(String(raw));
    expect(answer).toBeTypeOf('object');
    expect(Array.isArray(answer)).toBe(false);
    return answer;
  }

  it('joining, the heartbeat, leaving and removing a deployment', async () => {
    expect(await call('petJoin', JOIN_KEYS, join({ mode: 'check' }))).toEqual({ status: 'ok', world: '' });
    expect(await call('petJoin', JOIN_KEYS, join({}))).toEqual({ status: 'ok', world: 'w1', reporter: true });
    expect(await direct.hget(`${P}:deploy`, 'show:format')).toBe('shared-state format 5');
    expect(await direct.get(initKey(P, 'start'))).toBe('{}');
    // A second replica, id after the first's: it joins the same world and does not report.
    expect(await call('petJoin', JOIN_KEYS, join({ replica: 'r2', fresh: 'w2' }))).toEqual({ status: 'ok', world: 'w1', reporter: false });
    const other = FIELDS.map((f) => (f.field === 'seed' ? { ...f, value: '2', shown: '2' } : f));
    expect(await call('petJoin', JOIN_KEYS, join({ replica: 'r3', fields: other }))).toEqual({ status: 'differs', field: 'seed', shown: '1' });
    expect(await call('petJoin', JOIN_KEYS, join({ joined: 'w0' }))).toEqual({ status: 'replaced', world: 'w1' });
    expect(await call('petLeave', RECORD, { replica: 'r2' } satisfies LeaveInput)).toEqual({ live: 1 });
    expect(await call('petClear', RECORD, { mode: 'stale', last: true } satisfies ClearInput)).toEqual({ status: 'live', live: 1 });
    expect(await call('petClear', [...RECORD, initKey(P, 'start')], { mode: 'force', last: true } satisfies ClearInput)).toEqual({
      status: 'deleted',
      deleted: 2,
    });
    expect(await direct.exists(`${P}:deploy`)).toBe(0);
    expect(await call('petJoin', JOIN_KEYS, join({ joined: 'w1' }))).toEqual({ status: 'lost', world: '' });
  });

  it('storing and reading a scenario’s settings, an id needing escapes included', async () => {
    const id = 'scn one/ü';
    const keys = [scenarioKey(P, id), initKey(P, id), absentKey(P)];
    const put: SettingsInput = { action: 'put', id, scenario: '{"text":"a \\"quoted\\" ü"}', init: '{"n":1}' };
    expect(await call('petSettings', keys, put)).toEqual({ status: 'ok' });
    expect(await direct.get(scenarioKey(P, id))).toBe(put.scenario);
    expect(await call('petSettings', keys, { action: 'get', id } satisfies SettingsInput)).toEqual({ status: 'ok', text: put.scenario });
    const none = 'never-stored';
    expect(await call('petSettings', [scenarioKey(P, none), initKey(P, none), absentKey(P)], { action: 'get', id: none } satisfies SettingsInput)).toEqual({
      status: 'ok',
    });
  });

  it('the journal flush: named runs, the entries’ texts after them kept byte for byte', async () => {
    const mk = sessionKey(P, 's1');
    await direct.hset(mk, 'ep', 'e1');
    const entries = ['{"n":1,"a":"/"}', '{"n":2,"a":"ü"}'];
    const bytes = entries.map((e) => Buffer.byteLength(e));
    const texts = entries.map((e, i) => `${bytes[i]} ${e}`);
    const input: JournalInput = { runs: [{ sid: 's1', ep: 'e1', cap: 10, max: 1000, at: [1_790_000_000_000, 1_790_000_000_001], b: bytes }] };
    expect(await call('petJournal', [absentKey(P), ...journalKeys(P, 's1')], input, texts)).toEqual({ status: 'ok', runs: 1 });
    expect(await direct.lrange(`${mk}:j`, 0, -1)).toEqual(texts);
  });
});
