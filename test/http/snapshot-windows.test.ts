// Snapshots of keys with windows of seconds and hours: the document names each window, and a
// restore carries on counting in every one of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import type { SnapshotDocument } from '../../src/core/state/snapshot.js';
import { adminCall } from '../support/admin.js';
import { T0, call } from '../support/mock.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ keys: ['burst:pro:2/s,3/h'] });
});
afterAll(async () => {
  await mock.close();
});

describe('a snapshot of a key with windows of a second and an hour', () => {
  it('lists the key limits and each window by name, and a restore carries on counting in both', async () => {
    mock.reset();
    mock.clock.freeze();
    mock.clock.set(T0 + 500);
    expect((await call(mock, '/v1/pets?limit=1', { key: 'burst' })).headers.get('x-ratelimit-remaining')).toBe('1');
    const doc = (await adminCall<SnapshotDocument>(mock.origin, 'snapshot')).json;
    expect(doc.settings.keys.find((k) => k.key === 'burst')?.limits).toEqual(['2/s', '3/h']);
    expect(doc.limits.find((b) => b.key === 'burst')?.windows).toEqual([
      { window: '1s', start: new Date(T0).toISOString(), count: 1 },
      { window: '1h', start: new Date(T0).toISOString(), count: 1 },
    ]);
    mock.reset();
    expect((await adminCall(mock.origin, 'snapshot', { method: 'PUT', body: JSON.stringify(doc) })).status).toBe(200);
    const next = await call(mock, '/v1/pets?limit=1', { key: 'burst' });
    expect([next.status, next.headers.get('x-ratelimit-limit'), next.headers.get('x-ratelimit-remaining')]).toEqual([200, '2', '0']);
    const refused = await call(mock, '/v1/pets?limit=1', { key: 'burst' });
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
    mock.clock.advance('1s');
    const later = await call(mock, '/v1/pets?limit=1', { key: 'burst' });
    // The hour's third request: its window now has the fewest left.
    expect([later.status, later.headers.get('x-ratelimit-limit'), later.headers.get('x-ratelimit-remaining')]).toEqual([200, '3', '0']);
  });
});

describe('a snapshot of a session whose scenario presets the hour', () => {
  const scenario = {
    description: 'The hour of burst already used.',
    clock: { start: new Date(T0 + 10_000).toISOString(), frozen: true },
    usage: [{ key: 'burst', hour: 'full' }],
  };
  const status = async () => {
    const r = await call(mock, '/v1/pets?limit=1', { key: 'burst' });
    return [r.status, r.headers.get('x-ratelimit-limit'), r.headers.get('retry-after')];
  };

  it('holds the preset count and the usage line; restored, the hour stays full, and a reset presets it again', async () => {
    expect((await adminCall(mock.origin, 'scenario', { method: 'PUT', body: { scenario } })).status).toBe(200);
    const doc = (await adminCall<SnapshotDocument>(mock.origin, 'snapshot')).json;
    expect(doc.scenario.definition).toEqual(scenario);
    expect(doc.limits.find((b) => b.key === 'burst')?.windows).toContainEqual({ window: '1h', start: new Date(T0).toISOString(), count: 3 });
    mock.reset();
    await adminCall(mock.origin, 'scenario', { method: 'PUT', body: { name: 'default' } });
    expect((await adminCall(mock.origin, 'snapshot', { method: 'PUT', body: JSON.stringify(doc) })).status).toBe(200);
    // 12:00:10 to the end of the hour: 3590 s.
    expect(await status()).toEqual([429, '3', '3590']);
    mock.clock.advance('3590s');
    expect((await status())[0]).toBe(200);
    mock.reset();
    expect(await status()).toEqual([429, '3', '3590']);
  });

  it('refuses a document whose scenario fills a window the key does not have, by JSON pointer', async () => {
    expect((await adminCall(mock.origin, 'scenario', { method: 'PUT', body: { scenario } })).status).toBe(200);
    const doc = (await adminCall<SnapshotDocument>(mock.origin, 'snapshot')).json;
    const wrong = { ...doc, scenario: { ...doc.scenario, definition: { ...scenario, usage: [{ key: 'burst', minute: 1 }] } } };
    const res = await adminCall<{ code: string; message: string }>(mock.origin, 'snapshot', { method: 'PUT', body: JSON.stringify(wrong) });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('snapshot_invalid');
    expect(res.json.message).toContain('/scenario/definition/usage/0/minute');
    expect(res.json.message).toContain('usage fills the minute of the key "burst", which has no minute window (its windows are 2/s, 3/h)');
  });
});
