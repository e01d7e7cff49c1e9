import { describe, expect, it } from 'vitest';
import { createFetchHandler, type MockFetchHandler } from '../../src/index.js';
import { auditJournal, type AuditReport } from '../../src/core/audit/audit.js';
import type { JournalEntry } from '../../src/core/state/journal.js';

/** 12:00:59 on a whole minute: a 429 now says Retry-After: 1. */
const T59 = Date.UTC(2026, 2, 10, 12, 0, 59);

function handler(options: Parameters<typeof createFetchHandler>[0] = {}): MockFetchHandler {
  const h = createFetchHandler({ keys: ['sdk-key-1:free:2:1000'], ...options });
  h.clock.freeze();
  h.clock.set(T59);
  return h;
}

async function send(h: MockFetchHandler, path = '/v1/pets', init: RequestInit & { key?: string | null } = {}): Promise<number> {
  const { key = 'sdk-key-1', ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key !== null) headers.set('authorization', `Bearer ${key}`);
  const res = await h(new Request(`http://mock.test${path}`, { ...rest, headers }));
  await res.arrayBuffer();
  return res.status;
}

const rules = (report: AuditReport) => report.findings.map((f) => [f.rule, f.requests]);

describe('the client audit over a real journal', () => {
  it('finds nothing when the client waits Retry-After, and ok is true', async () => {
    const h = handler();
    expect([await send(h), await send(h), await send(h)]).toEqual([200, 200, 429]);
    expect(h.requests()[2]!.retryAfter).toBe(1);
    h.clock.advance('1s');
    expect(await send(h)).toBe(200);
    expect(h.audit()).toEqual({ ok: true, findings: [], judged: { requests: 4, keys: [{ key: 'sdk-…y-1', keyId: h.requests()[0]!.keyId, requests: 4 }] } });
    expect(() => h.expectWellBehaved({ warnings: true })).not.toThrow();
  });

  it('flags requests sent before Retry-After passed as early-retry, with the 429 first, and their run as no-backoff', async () => {
    const h = handler();
    for (let i = 0; i < 5; i++) await send(h);
    const report = h.audit();
    expect(rules(report)).toEqual([
      ['early-retry', [3, 4, 5]],
      ['no-backoff', [3, 4, 5]],
    ]);
    expect(report.ok).toBe(false);
    expect(report.findings[0]).toMatchObject({ severity: 'error', key: 'sdk-…y-1' });
    expect(report.findings[0]!.message).toBe(
      '2 requests with key sdk-…y-1 (#4 and #5) came before the Retry-After of 1 s of the 429 at #3 had passed on the session clock, the first at the same instant. The specification asks clients to wait the time given in Retry-After before retrying; requests sent while limited can get the key banned.',
    );
    expect(report.findings[1]!.severity).toBe('warning');
    expect(() => h.expectWellBehaved()).toThrow(/audit found 1 error\.\n {2}early-retry \(error, key sdk-…y-1\): 2 requests/);
    expect(() => h.expectWellBehaved({ warnings: true })).toThrow(/1 error and 1 warning[^]*no-backoff \(warning/);
  });

  it('judges each key on its own and narrows to one key, given whole or redacted', async () => {
    const h = handler({ keys: ['sdk-key-1:free:1:1000', 'other-key:free:1:1000'] });
    await send(h);
    await send(h);
    await send(h, '/v1/pets', { key: 'other-key' });
    await send(h);
    expect(rules(h.audit())).toEqual([['early-retry', [2, 4]]]);
    expect(h.audit({ key: 'other-key' })).toEqual({
      ok: true,
      findings: [],
      judged: { requests: 1, keys: [{ key: 'othe…key', keyId: h.requests()[2]!.keyId, requests: 1 }] },
    });
    expect(h.audit({ key: 'sdk-…y-1' }).findings).toHaveLength(1);
  });

  it('a request after the wait ends is clean even when it is refused again (a new wait)', async () => {
    const h = handler({ keys: ['sdk-key-1:free:1:1'] });
    await send(h);
    expect(await send(h)).toBe(429);
    const retryAfter = h.requests()[1]!.retryAfter!;
    expect(retryAfter).toBeGreaterThan(1);
    h.clock.advance(`${retryAfter}s`);
    expect(await send(h)).toBe(200);
    expect(h.audit().findings).toEqual([]);
  });

  it('flags requests that keep coming while the key is banned, and not as early-retry', async () => {
    const h = createFetchHandler({ scenario: 'banned' });
    h.clock.freeze();
    for (let i = 0; i < 3; i++) await send(h, '/v1/pets', { key: 'demo-free' });
    expect(h.requests().map((e) => e.code)).toEqual(['key_banned', 'key_banned', 'key_banned']);
    const retryAfter = h.requests()[2]!.retryAfter!;
    expect(retryAfter).toBeGreaterThan(290);
    h.clock.advance(`${retryAfter}s`);
    expect(await send(h, '/v1/pets', { key: 'demo-free' })).toBe(200);
    const report = h.audit();
    expect(rules(report)).toEqual([
      ['request-while-banned', [1, 2, 3]],
      ['no-backoff', [1, 2, 3]],
    ]);
    expect(report.findings[0]!.message).toMatch(
      /^2 requests with key demo…ree \(#2 and #3\) came while the key was banned, after the 429 key_banned at #1 said so and to retry after \d+ s\./,
    );
  });

  it('warns of the deprecated call with its replacement and date, and errs on calls after its 410', async () => {
    const h = handler({ keys: ['sdk-key-1:pro'] });
    await send(h, '/v1/pets/1');
    await send(h, '/v1/pets?status=available');
    h.clock.set('2030-12-05T00:00:00Z');
    expect(await send(h, '/v1/pets/1')).toBe(410);
    await send(h, '/v1/pets/2');
    const report = h.audit();
    expect(rules(report)).toEqual([
      ['deprecated-call', [1]],
      ['call-after-removal', [3, 4]],
    ]);
    expect(report.findings[0]!.message).toBe(
      '1 request with key sdk-…y-1 (#1) used GET /v1/pets/{petId}, which the specification deprecates and removes on 5 December 2030. Move to GET /v1/pets?status= (the replacement it names) before then.',
    );
    expect(report.findings[1]!.message).toMatch(
      /^after the 410 at #3 said GET \/v1\/pets\/\{petId\} was removed, the client \(key sdk-…y-1\) called it 1 more time \(#4\)\./,
    );
  });

  it('flags the same rejected request sent again, by body digest, and not a changed one', async () => {
    const h = handler({ keys: ['sdk-key-1:pro'] });
    const post = (body: string) => send(h, '/v1/pets', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(await post('{"name": 1}')).toBe(400);
    expect(await post('{"name": 2}')).toBe(400);
    expect(await post('{"name": 1}')).toBe(400);
    expect(await send(h, '/v1/pets/999999')).toBe(404);
    expect(await send(h, '/v1/pets/999999')).toBe(404);
    expect(await send(h, '/v1/pets/999999', { key: 'wrong-key-1' })).toBe(401);
    expect(await send(h, '/v1/pets/999999', { key: 'wrong-key-2' })).toBe(401);
    expect(await send(h, '/v1/pets/999999', { key: 'wrong-key-1' })).toBe(401);
    const found = h.audit().findings.filter((f) => f.rule === 'repeated-rejected-request');
    expect(found.map((f) => [f.key, f.requests])).toEqual([
      ['sdk-…y-1', [1, 3]],
      ['sdk-…y-1', [4, 5]],
      [null, [6, 8]],
    ]);
    expect(found[0]!.message).toBe(
      'POST /v1/pets was sent again unchanged (same key and body) 1 time (#3) after the 400 invalid_body at #1, and answered the same. That answer depends only on the request, so repeating it cannot succeed: change its query or body instead of retrying.',
    );
  });
});

/** A journal entry as the engines write them, for cases a live mock cannot stage. */
function entry(seq: number, ms: number, fields: Partial<JournalEntry>): JournalEntry {
  return {
    seq,
    at: new Date(ms).toISOString(),
    session: 'default',
    method: 'GET',
    path: '/v1/pets',
    query: '',
    status: 200,
    reason: 'ok',
    durationMs: 0.1,
    key: 'sdk-…y-1',
    ...fields,
  };
}

describe('auditJournal on recorded entries', () => {
  const limited = { status: 429, code: 'rate_limited', retryAfter: 2 };

  it('judges by the times, not by the ban accounting: a retry the ban rule forgave by count is still early', () => {
    const entries = [
      entry(1, T59, limited),
      entry(2, T59 + 5, {
        ...limited,
        ban: {
          counted: false,
          count: 0,
          after: 3,
          why: 'one of the first 8 refusals of this wait, taken as sent before its first 429 could be read (in flight)',
        },
      }),
      entry(3, T59 + 9, { ...limited, ban: { counted: true, count: 1, after: 3 } }),
    ];
    expect(auditJournal(entries).findings.find((f) => f.rule === 'early-retry')?.requests).toEqual([1, 2, 3]);
  });

  it('excepts a request that arrived while the 429 was still being answered (latency)', () => {
    const slow = entry(1, T59, { ...limited, delayMs: 500 });
    const entries = [slow, entry(2, T59 + 200, limited), entry(3, T59 + 900, limited)];
    expect(auditJournal(entries).findings.find((f) => f.rule === 'early-retry')?.requests).toEqual([1, 3]);
  });

  it('reads Retry-After from recorded details when the field is missing, and compares recorded bodies without a digest', () => {
    const details = (body: string) => ({ request: { headers: {}, body }, response: { headers: { 'Retry-After': '3' } } });
    const entries = [
      entry(1, T59, { status: 429, code: 'rate_limited', details: details('') }),
      entry(2, T59 + 2500, { status: 200 }),
      entry(3, T59 + 4000, { method: 'POST', status: 400, code: 'invalid_body', details: details('{}') }),
      entry(4, T59 + 5000, { method: 'POST', status: 400, code: 'invalid_body', details: details('{}') }),
      entry(5, T59 + 6000, { method: 'POST', status: 400, code: 'invalid_body' }),
    ];
    expect(rules(auditJournal(entries))).toEqual([
      ['early-retry', [1, 2]],
      ['repeated-rejected-request', [3, 4]],
    ]);
  });

  it('does not warn of backoff when the waits grow', () => {
    const entries = [entry(1, T59, limited), entry(2, T59 + 2000, limited), entry(3, T59 + 6000, limited), entry(4, T59 + 14_000, limited)];
    expect(auditJournal(entries)).toEqual({ ok: true, findings: [], judged: { requests: 4, keys: [{ key: 'sdk-…y-1', keyId: null, requests: 4 }] } });
  });

  it('leaves out answers a scenario forced: a repeat may get another', () => {
    const forced = { status: 401, code: 'invalid_api_key', reason: 'scenario flaky, step 1: forced 401', digest: 'aa-0' };
    expect(auditJournal([entry(1, T59, forced), entry(2, T59 + 1, forced)]).findings).toEqual([]);
  });
});
