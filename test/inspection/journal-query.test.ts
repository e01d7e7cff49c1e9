import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/index.js';
import { JournalFilterError, compileFilter, verifyEntries, type JournalFilter } from '../../src/core/state/journal-query.js';
import { captureDetails, detailsBytes, MAX_DETAIL_BODY_BYTES } from '../../src/core/state/journal-details.js';

const entry = (seq: number, method: string, path: string, status: number, extra: Partial<JournalEntry> = {}): JournalEntry => ({
  seq,
  at: new Date(Date.UTC(2026, 2, 10, 12, 0, seq)).toISOString(),
  session: 'default',
  method,
  path,
  query: '',
  status,
  reason: 'r',
  durationMs: 0,
  ...extra,
});

const journal = [
  entry(1, 'GET', '/v1/pets', 200, { key: 'demo…ree' }),
  entry(2, 'POST', '/v1/pets', 201, { key: 'demo…ree' }),
  entry(3, 'POST', '/v1/pets', 400, { key: 'demo…pro', code: 'invalid_body' }),
  entry(4, 'GET', '/v1/pets/7', 404, { code: 'pet_not_found', key: 'demo…pro' }),
  entry(5, 'GET', '/v1/pets', 429, { code: 'rate_limited', key: 'demo…ree' }),
];

const seqs = (filter: JournalFilter): number[] => journal.filter((e) => compileFilter(filter).matches(e)).map((e) => e.seq);

describe('journal filters', () => {
  it.each<[JournalFilter, number[]]>([
    [{}, [1, 2, 3, 4, 5]],
    [{ method: 'post' }, [2, 3]],
    [{ path: '/v1/pets' }, [1, 2, 3, 5]],
    [{ path: '/v1/pets/*' }, [4]],
    [{ path: '/v1/*' }, [1, 2, 3, 4, 5]],
    [{ status: 429 }, [5]],
    [{ status: '4xx' }, [3, 4, 5]],
    [{ code: 'pet_not_found' }, [4]],
    [{ key: 'demo-free' }, [1, 2, 5]],
    [{ key: 'demo…pro' }, [3, 4]],
    [{ since: '2026-03-10T12:00:03Z' }, [3, 4, 5]],
    [{ since: new Date(Date.UTC(2026, 2, 10, 12, 0, 5)) }, [5]],
    [{ method: 'POST', status: '2xx', key: 'demo-free' }, [2]],
  ])('%j takes %j', (filter, expected) => {
    expect(seqs(filter)).toEqual(expected);
  });

  it.each<[JournalFilter, RegExp]>([
    [{ status: 'teapot' }, /status must be a status such as 429 or a class such as 4xx, not "teapot"/],
    [{ status: 99 }, /not "99"/],
    [{ since: 'yesterday' }, /since must be an ISO-8601 instant/],
    [{ since: '2026-02-30T00:00:00Z' }, /since must be an ISO-8601 instant/],
    [{ since: new Date(NaN) }, /since must be an ISO-8601 instant/],
  ])('%j is refused', (filter, message) => {
    expect(() => compileFilter(filter)).toThrow(JournalFilterError);
    expect(() => compileFilter(filter)).toThrow(message);
  });
});

describe('verify', () => {
  it('returns the matching entries when the count holds', () => {
    expect(verifyEntries(journal, { method: 'POST', path: '/v1/pets' }, 2).map((e) => e.seq)).toEqual([2, 3]);
    expect(verifyEntries(journal, { status: 429 }).map((e) => e.seq)).toEqual([5]);
    expect(verifyEntries(journal, { code: 'key_banned' }, 0)).toEqual([]);
    expect(verifyEntries(journal, { method: 'GET' }, { atLeast: 2, atMost: 3 }).map((e) => e.seq)).toEqual([1, 4, 5]);
  });

  it('throws a message naming the filter, the matching requests and the near misses', () => {
    expect(() => verifyEntries(journal, { method: 'POST', path: '/v1/pets', status: 201 }, 3)).toThrow(
      [
        'petstore-mock: expected exactly 3 requests matching method POST, path /v1/pets, status 201, but the journal has 1.',
        'Matching:',
        '  #2 2026-03-10T12:00:02.000Z POST /v1/pets → 201 key demo…ree',
        'Near misses (one criterion off):',
        '  #3 2026-03-10T12:00:03.000Z POST /v1/pets → 400 invalid_body key demo…pro',
      ].join('\n'),
    );
  });

  it('says where to look when nothing comes close', () => {
    expect(() => verifyEntries(journal, { path: '/v2/*' })).toThrow(
      'petstore-mock: expected at least 1 request matching path /v2/*, but the journal has 0.\nThe journal holds 5 requests; check the filter, the session (X-Mock-Session) and that the requests reached this mock.',
    );
  });
});

describe('journal details', () => {
  const headers = { 'content-type': 'application/json', authorization: 'Bearer demo-enterprise', cookie: 'sid=abcdefghijk' };

  it('keeps headers with credentials redacted, and both bodies', () => {
    const body = new TextEncoder().encode('{"name":"Rex","categoryId":1}');
    const details = captureDetails({ method: 'POST', path: '/v1/pets', query: '', headers, body }, { 'Content-Type': 'application/json' }, '{"id":151}');
    expect(details).toEqual({
      request: {
        headers: { 'content-type': 'application/json', authorization: 'Bearer demo…ise', cookie: 'sid=…ijk' },
        body: '{"name":"Rex","categoryId":1}',
        bodyBytes: 29,
      },
      response: { headers: { 'Content-Type': 'application/json' }, body: '{"id":151}', bodyBytes: 10 },
    });
  });

  it('cuts bodies at 4 KiB, marked truncated, and never splits a character', () => {
    const long = `[${'"é",'.repeat(3000)}"x"]`;
    const details = captureDetails({ method: 'GET', path: '/v1/pets', query: '', headers: {} }, {}, long);
    const kept = new TextEncoder().encode(details.response.body).length;
    expect(details.response.truncated).toBe(true);
    expect(details.response.bodyBytes).toBe(new TextEncoder().encode(long).length);
    expect(kept).toBeLessThanOrEqual(MAX_DETAIL_BODY_BYTES);
    expect(kept).toBeGreaterThan(MAX_DETAIL_BODY_BYTES - 4);
    expect(details.response.body).not.toContain('\uFFFD');
  });

  it('describes a compressed request body instead of showing its bytes', () => {
    const details = captureDetails(
      { method: 'POST', path: '/v1/pets', query: '', headers: { 'content-encoding': 'gzip' }, body: new Uint8Array(40) },
      {},
      undefined,
    );
    expect(details.request.body).toBe('(40 bytes, gzip)');
    expect(details.response).toEqual({ headers: {} });
  });
});

describe('the size of details', () => {
  it('grows with the bodies and headers kept, and is bounded by the 4 KiB cut', () => {
    const small = captureDetails({ method: 'GET', path: '/v1/pets', query: '', headers: { a: 'b' } }, {}, '[]');
    const big = captureDetails({ method: 'GET', path: '/v1/pets', query: '', headers: { a: 'b' } }, {}, 'x'.repeat(100_000));
    expect(detailsBytes(big) - detailsBytes(small)).toBe(2 * (MAX_DETAIL_BODY_BYTES - 2));
    expect(detailsBytes(big)).toBeLessThan(2 * MAX_DETAIL_BODY_BYTES + 1000);
  });
});
