// verify against the mock itself: every rule holds for every plan's key, with and without the
// rate-limit rules, and the safety promises (budget, read-only, stop at a 429) hold on the wire.
import { describe, expect, it } from 'vitest';
import { verify, VerifyCouldNotRun } from '../../src/index.js';
import { freePort } from '../support/ports.js';
import { failedIds, freshSession, passedIds, skippedIds, useVerifyMock } from './support.js';

const mock = useVerifyMock();

const EVERY_RULE_BUT_RATE_AND_REMOVAL = [
  'auth.required',
  'auth.invalid-key',
  'error.shape',
  'list.default-limit',
  'list.limit-bounds',
  'list.status-filter',
  'create.assigns-id',
  'create.rejects-invalid',
  'get.found',
  'get.not-found',
  'deprecation.headers',
  'ratelimit.headers',
  'openapi.bodies',
];

describe('verify against the mock', () => {
  it.each(['demo-free', 'demo-pro', 'demo-business', 'demo-enterprise'])('every rule holds for %s', async (key) => {
    const { handle, options } = freshSession(mock());
    const report = await verify(mock().url, { key, ...options });
    expect(failedIds(report)).toEqual([]);
    expect(passedIds(report)).toEqual(EVERY_RULE_BUT_RATE_AND_REMOVAL);
    expect(skippedIds(report)).toEqual(['deprecation.removal', 'ratelimit.retry-after', 'ratelimit.no-ban']);
    expect(report.rules.find((r) => r.id === 'deprecation.removal')?.message).toMatch(/before the removal on Thu, 05 Dec 2030.*--scenario removed/);
    // Every request verify counted reached the mock, and no more than the default budget.
    expect(handle.requests()).toHaveLength(report.requests);
    expect(report.requests).toBeLessThanOrEqual(60);
    expect(report.base).toBe(mock().url);
  });

  it('with rateLimits every rule but the removal holds, for a key whose quota runs out mid-run', async () => {
    const { handle, options } = freshSession(mock());
    const report = await verify(`${mock().url}/`, { key: 'k5', rateLimits: true, ...options });
    expect(failedIds(report)).toEqual([]);
    expect(skippedIds(report)).toEqual(['deprecation.removal']);
    expect(report.rules.find((r) => r.id === 'ratelimit.retry-after')?.message).toMatch(
      /^429 with Retry-After: \d+, and X-RateLimit-Reset \d+ = Date \+ \d+ s$/,
    );
    const refusals = handle.requests({ status: 429 });
    expect(refusals.length).toBeGreaterThan(1);
    // Each refusal was waited out: none counted toward a ban, and no ban came.
    expect(refusals.map((r) => r.code)).not.toContain('key_banned');
    expect(report.requests).toBeLessThanOrEqual(60);
  });

  it('with rateLimits under the ban scenario (5 a minute, a low ban threshold) honouring Retry-After never earns a ban', async () => {
    const { handle, options } = freshSession(mock(), 'ban');
    const report = await verify(mock().url, { key: 'demo-free', rateLimits: true, ...options });
    expect(failedIds(report)).toEqual([]);
    expect(handle.requests({ code: 'key_banned' })).toEqual([]);
    expect(passedIds(report)).toContain('ratelimit.no-ban');
  });

  it('past the removal date (scenario removed) checks the 410 and skips the get rules', async () => {
    const { options } = freshSession(mock(), 'removed');
    const report = await verify(mock().url, { key: 'demo-pro', ...options });
    expect(failedIds(report)).toEqual([]);
    expect(passedIds(report)).toContain('deprecation.removal');
    expect(report.rules.find((r) => r.id === 'deprecation.removal')?.message).toMatch(/^410 at 2031-01-01T00:00:00\.000Z/);
    expect(skippedIds(report)).toEqual(['get.found', 'get.not-found', 'ratelimit.retry-after', 'ratelimit.no-ban']);
  });

  it('follows the mock clock across the removal (scenario removal-eve, then a minute later)', async () => {
    const { handle, options } = freshSession(mock(), 'removal-eve');
    const before = await verify(mock().url, { key: 'demo-pro', ...options });
    expect(passedIds(before)).toContain('get.found');
    expect(skippedIds(before)).toContain('deprecation.removal');
    handle.clock.advance('1m');
    const after = await verify(mock().url, { key: 'demo-pro', ...options });
    expect(failedIds(after)).toEqual([]);
    expect(passedIds(after)).toContain('deprecation.removal');
  });
});

describe('verify is safe against a real service', () => {
  it('readOnly sends no POST and skips the create rules', async () => {
    const { handle, options } = freshSession(mock());
    const report = await verify(mock().url, { key: 'demo-pro', readOnly: true, ...options });
    expect(handle.requests({ method: 'POST' })).toEqual([]);
    expect(handle.requests().length).toBeGreaterThan(10);
    expect(failedIds(report)).toEqual([]);
    expect(skippedIds(report)).toEqual(['create.assigns-id', 'create.rejects-invalid', 'deprecation.removal', 'ratelimit.retry-after', 'ratelimit.no-ban']);
    expect(report.rules.find((r) => r.id === 'auth.required')?.message).toBe('listPets, getPet answer 401 without Authorization');
  });

  it('sends no more than maxRequests and skips what needed more', async () => {
    const { handle, options } = freshSession(mock());
    const report = await verify(mock().url, { key: 'demo-pro', maxRequests: 9, ...options });
    expect(handle.requests()).toHaveLength(9);
    expect(report.requests).toBe(9);
    expect(failedIds(report)).toEqual([]);
    const budget = report.rules.filter((r) => r.message.includes('the request budget (9, --max-requests) is spent'));
    expect(budget.length).toBeGreaterThan(3);
    expect(budget.every((r) => r.skipped && !r.ok)).toBe(true);
  });

  it('with rateLimits skips the quota rules when the budget cannot exhaust the quota', async () => {
    const { handle, options } = freshSession(mock());
    const report = await verify(mock().url, { key: 'demo-free', rateLimits: true, ...options });
    expect(failedIds(report)).toEqual([]);
    expect(report.rules.find((r) => r.id === 'ratelimit.retry-after')?.message).toMatch(
      /^exhausting the quota takes \d+ more requests .*raise --max-requests to \d+$/,
    );
    expect(handle.requests({ status: 429 })).toEqual([]);
  });

  it('without rateLimits stops sending at the first 429 and says why', async () => {
    const { handle, options } = freshSession(mock());
    const report = await verify(mock().url, { key: 'k5', ...options });
    const journal = handle.requests();
    const refused = journal.findIndex((e) => e.status === 429);
    expect(refused).toBeGreaterThan(0);
    expect(journal.slice(refused + 1)).toEqual([]);
    expect(report.stopped).toMatch(/answered 429 with Retry-After: \d+, so verify stopped sending rather than risk a ban/);
    expect(failedIds(report)).toEqual([]);
    expect(report.rules.filter((r) => r.message === `not checked: ${report.stopped}`)).toHaveLength(1);
    const notReached = report.rules.filter((r) => /^not checked: verify stopped sending at a 429 \(Retry-After: \d+\)$/.test(r.message));
    expect(notReached.length).toBeGreaterThan(2);
    expect(notReached.every((r) => r.skipped)).toBe(true);
  });
});

describe('verify cannot run', () => {
  it('when nothing answers at the address', async () => {
    const port = await freePort();
    const error = await verify(`http://127.0.0.1:${port}/v1`, { key: 'demo-pro' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerifyCouldNotRun);
    expect((error as VerifyCouldNotRun).kind).toBe('unreachable');
    expect((error as Error).message).toMatch(
      new RegExp(`^petstore-mock: could not run: http://127.0.0.1:${port}/v1 is unreachable \\(.*ECONNREFUSED.*\\); check the URL`),
    );
  });

  it('when the service refuses the key, and says so without printing it', async () => {
    const { handle, options } = freshSession(mock());
    const error = await verify(mock().url, { key: 'not-a-key-of-this-mock', ...options }).catch((e: unknown) => e);
    expect((error as VerifyCouldNotRun).kind).toBe('key-refused');
    expect((error as Error).message).toBe(
      `petstore-mock: could not run: ${mock().url} refused the key (GET /v1/pets?limit=100 answered 401 invalid_api_key); check --key.`,
    );
    expect(handle.requests()).toHaveLength(1);
  });

  it('when the quota is already used up, sending one request only', async () => {
    const { handle, options } = freshSession(mock(), 'rate-limit-minute');
    const error = await verify(mock().url, { key: 'demo-pro', rateLimits: false, ...options }).catch((e: unknown) => e);
    expect((error as VerifyCouldNotRun).kind).toBe('rate-limited');
    expect(handle.requests()).toHaveLength(1);
  });

  it('refuses options it cannot use', async () => {
    await expect(verify('staging.example.com/v1', { key: 'k' })).rejects.toThrow(/verify needs the API's base URL, such as https:/);
    await expect(verify('ftp://example.com/v1', { key: 'k' })).rejects.toThrow(/give an http:\/\/ or https:\/\/ base URL/);
    await expect(verify(mock().url, { key: '' })).rejects.toThrow(/verify needs the API key to send/);
    await expect(verify(mock().url, undefined as never)).rejects.toThrow(/verify needs the API key to send \(--key KEY, or the key option\)/);
    await expect(verify(mock().url, { key: 'k', maxRequests: 0 })).rejects.toThrow(/maxRequests must be a whole number of at least 1, not 0/);
  });
});
