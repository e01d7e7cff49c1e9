// The client audit on a shared state: the Redis engine journals the same fields (retryAfter,
// digest), so the audit, a function of the journal, finds the same things as in memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type SharedRunningMock } from '../../src/index.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();
/** 12:00:59 on a whole minute: a 429 says Retry-After: 1. */
const T59 = Date.UTC(2026, 2, 10, 12, 0, 59);
const AUTH = { authorization: 'Bearer sdk-key-1' };

describe.skipIf(!run)('the client audit with a shared state', () => {
  let redis: TestRedis;
  let mock: SharedRunningMock;
  beforeAll(async () => {
    redis = await TestRedis.start();
    mock = await startMock({ state: redis.url, statePrefix: 'audit', keys: ['sdk-key-1:free:1:1000'] });
  });
  afterAll(async () => {
    await mock?.close();
    await redis?.stop();
  });

  it('finds early retries and a repeated rejected body, by the API and GET /__admin/audit', async () => {
    await mock.clock.freeze();
    await mock.clock.set(T59);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${mock.url}/pets?limit=1`, { headers: AUTH });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    await mock.clock.advance('1s');
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${mock.url}/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json' },
        body: '{"name": 7}',
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 429, 429, 400, 400]);
    expect((await mock.requests()).map((e) => e.retryAfter)).toEqual([undefined, 1, 1, undefined, undefined]);
    const report = await mock.audit();
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.requests])).toEqual([
      ['early-retry', [2, 3]],
      ['repeated-rejected-request', [4, 5]],
    ]);
    await expect(mock.expectWellBehaved()).rejects.toThrow(/the audit found 2 errors/);
    const answer = await fetch(`${mock.origin}/__admin/audit`);
    expect(await answer.json()).toEqual(report);
  });

  it('journals the fields the retry rules read: the connection and its use, the instance, an HTTP-date wait, a POST digest', async () => {
    const session = mock.session('fields');
    const put = await fetch(`${mock.origin}/__admin/scenario`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-mock-session': 'fields' },
      body: JSON.stringify({ scenario: { description: 'Retry-After as a date.', retryAfterFormat: 'http-date' } }),
    });
    expect(put.status, await put.text()).toBe(200);
    await session.clock.freeze();
    await session.clock.set(T59);
    const headers = { ...AUTH, 'x-mock-session': 'fields' };
    const retryAfter: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${mock.url}/pets?limit=1`, { headers });
      await res.arrayBuffer();
      retryAfter.push(res.headers.get('retry-after'));
    }
    expect(retryAfter).toEqual([null, 'Tue, 10 Mar 2026 12:01:00 GMT', 'Tue, 10 Mar 2026 12:01:00 GMT']);
    const created = await fetch(`${mock.url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json', 'x-mock-session': 'fields' },
      body: '{"name": "Rex", "categoryId": 1}',
    });
    await created.arrayBuffer();
    const entries = await session.requests();
    expect(entries.map((e) => [e.retryAfter, e.retryAfterForm])).toEqual([
      [undefined, undefined],
      [1, 'http-date'],
      [1, 'http-date'],
      [undefined, undefined],
    ]);
    for (const e of entries) {
      expect(e.connectionUse).toBeGreaterThanOrEqual(1);
      expect(e.instance).toMatch(/^.+:\d+$/);
    }
    expect(entries[3]!.digest).toMatch(/^[0-9a-f]{8}-32$/);
    const report = await session.audit();
    expect(report.findings.map((f) => f.rule)).toEqual(['early-retry', 'retry-after-misread']);
  });
});
