// The bounds of memory hold on a shared state, with the answers memory gives: looking creates and
// evicts nothing, journal entries are cut and bounded in bytes, ids end at 2^53 - 1, a session's
// store has its cap. Driven through the engine and admin state in process, on a real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreRequest } from '../../src/core/types.js';
import { prepareDefaults } from '../../src/files/defaults-data.js';
import { ScenarioCatalogue } from '../../src/files/scenario-catalogue.js';
import { DEFAULT_JOURNAL_BYTES, MAX_JOURNAL_TEXT } from '../../src/core/state/journal.js';
import { MAX_CREATED_PETS } from '../../src/core/state/store.js';
import { openSharedState, type SharedState } from '../../src/state-redis/index.js';
import { Pipeline } from '../../src/core/pipeline/pipeline.js';
import { TestRedis, redisAvailable } from '../support/redis.js';
import { minuteDay } from '../../src/core/state/windows.js';

const run = redisAvailable();

function request(path: string, options: { session?: string; method?: string; body?: string; query?: string } = {}): CoreRequest {
  const headers: Record<string, string> = { authorization: 'Bearer bound-key' };
  if (options.session) headers['x-mock-session'] = options.session;
  if (options.body) headers['content-type'] = 'application/json';
  return {
    method: options.method ?? 'GET',
    path,
    query: options.query ?? '',
    headers,
    body: options.body === undefined ? null : new TextEncoder().encode(options.body),
    remoteAddress: '10.0.0.9',
  };
}

describe.skipIf(!run)('the bounds of memory on a shared state', () => {
  let redis: TestRedis;
  const opened: SharedState[] = [];

  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterAll(async () => {
    for (const s of opened) await s.close();
    await redis?.stop();
  });

  async function open(prefix: string, fixtures?: { id: number; name: string; categoryId: number }[]): Promise<SharedState & { engine: Pipeline<string> }> {
    const scenarios = new ScenarioCatalogue(prepareDefaults({ keys: [{ key: 'bound-key', plan: 'enterprise', limits: minuteDay(1e9, 1e9) }], fixtures }));
    const state = await openSharedState({ url: redis.url, prefix, scenarios, fixtures: fixtures !== undefined });
    opened.push(state);
    return { ...state, engine: new Pipeline(state.port) };
  }

  it('1,001 looks at distinct sessions create none and evict none: the session holding work keeps it', async () => {
    const { engine, admin } = await open('look');
    const created = await engine.handle(request('/v1/pets', { method: 'POST', session: 'work', body: '{"name":"Kept","categoryId":1}' }));
    expect(created.status).toBe(201);
    for (let i = 0; i < 1001; i++) {
      await admin.clock(`look-${i}`);
      if (i % 250 === 0) expect(await admin.requests(`look-${i}`)).toEqual([]);
    }
    expect((await admin.sessions()).map((s) => s.id)).toEqual(['default', 'work']);
    expect((await engine.handle(request('/v1/pets/51', { session: 'work' }))).status).toBe(200);
    expect(await admin.evictions()).toEqual([]);
  });

  it('cuts journal paths and queries to 256 characters, marked truncated, and keeps the journal within its bytes', async () => {
    const { engine, admin } = await open('journal');
    const long = `/v1/${'p'.repeat(4096)}`;
    for (let i = 0; i < 1000; i++) await engine.handle(request(long, { session: 'big', query: `q=${'x'.repeat(1000)}` }));
    const entries = await admin.requests('big');
    // The byte bound (1 MiB, counted as in memory) lets go of the oldest before the 1,000-entry one.
    expect(entries.length).toBeGreaterThan(100);
    expect(entries.length).toBeLessThan(1000);
    expect(entries.at(-1)?.seq).toBe(1000);
    for (const entry of entries) {
      expect(entry.path.length).toBe(MAX_JOURNAL_TEXT);
      expect(entry.query.length).toBe(MAX_JOURNAL_TEXT);
      expect(entry.truncated).toBe(true);
    }
    // The bytes Redis holds for the journal: its entries, bounded as in memory.
    const held = Number(redis.cli('MEMORY', 'USAGE', '{journal}:s:big:j'));
    expect(held).toBeLessThan(DEFAULT_JOURNAL_BYTES * 2);
    expect((await admin.journal('big')).total).toBe(1000);
  });

  it('answers 507 store_full once ids would pass 2^53 - 1, never giving one id twice', async () => {
    const { engine } = await open('ids', [{ id: 9007199254740989, name: 'Last', categoryId: 1 }]);
    const create = (): Promise<{ status: number; body?: string }> =>
      Promise.resolve(engine.handle(request('/v1/pets', { method: 'POST', body: '{"name":"Next","categoryId":1}' })));
    const first = await create();
    const second = await create();
    const third = await create();
    expect([first.status, second.status, third.status]).toEqual([201, 201, 507]);
    expect(JSON.parse(first.body ?? '{}').id).toBe(9007199254740990);
    expect(JSON.parse(second.body ?? '{}').id).toBe(9007199254740991);
    expect(JSON.parse(third.body ?? '{}')).toMatchObject({ code: 'store_full' });
    expect(JSON.parse(third.body ?? '{}').message).toContain('2^53 - 1');
  });

  it(`keeps at most ${MAX_CREATED_PETS} created animals per session, then answers 507 store_full`, async () => {
    const { engine } = await open('cap');
    const body = '{"name":"Many","categoryId":1}';
    for (let batch = 0; batch < MAX_CREATED_PETS / 500; batch++) {
      const answers = await Promise.all(Array.from({ length: 500 }, () => engine.handle(request('/v1/pets', { method: 'POST', body, session: 'cap' }))));
      expect(answers.every((a) => a.status === 201)).toBe(true);
    }
    const full = await engine.handle(request('/v1/pets', { method: 'POST', body, session: 'cap' }));
    expect(full.status).toBe(507);
    expect(JSON.parse(full.body ?? '{}').message).toContain(`a session may create ${MAX_CREATED_PETS} animals`);
  }, 60_000);
});
