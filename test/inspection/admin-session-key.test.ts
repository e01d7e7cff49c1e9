// The admin reads the audit points to take ?session=, and key filters tell apart keys that redact
// alike by the whole key, over HTTP.
import { beforeEach, describe, expect, it } from 'vitest';
import { call, useMock } from '../support/mock.js';
import { adminCall, keyIdsOf } from '../support/admin.js';
import { keyIdOf, sha256Hex } from '../../src/core/state/key-id.js';
import type { JournalEntry } from '../../src/core/state/journal.js';
import type { AuditReport } from '../../src/core/audit/audit.js';

const A = 'worker-a-001';
const B = 'worker-b-001';
const { mock, fresh } = useMock({ keys: [`${A}:free:1:100`, `${B}:free:100:1000`] });
beforeEach(() => {
  fresh();
  mock().session('w3').reset();
});

/** A's second request is refused; B's three come during A's wait. In session `w3`. */
async function traffic(): Promise<void> {
  const inW3 = { 'x-mock-session': 'w3' };
  await call(mock(), '/v1/pets?limit=1', { key: A, headers: inW3 });
  await call(mock(), '/v1/pets?limit=1', { key: A, headers: inW3 });
  for (let i = 0; i < 3; i++) await call(mock(), '/v1/pets?limit=1', { key: B, headers: inW3 });
}

describe('?session= on the admin reads', () => {
  it.each([
    ['requests', (json: JournalEntry[]) => json.map((e) => e.status), [200, 429, 200, 200, 200]],
    ['requests/count?status=429', (json: { count: number; session: string }) => [json.count, json.session], [1, 'w3']],
    ['journal', (json: { session: string; entries: number }) => [json.session, json.entries], ['w3', 5]],
    ['audit', (json: AuditReport) => [json.ok, json.judged.requests], [true, 5]],
  ] as const)('GET /__admin/%s reads the session it names', async (path, read, expected) => {
    await traffic();
    const named = await adminCall<never>(mock().origin, `${path}${path.includes('?') ? '&' : '?'}session=w3`);
    expect(named.status).toBe(200);
    expect((read as (json: unknown) => unknown)(named.json)).toEqual(expected);
    const byHeader = await adminCall<never>(mock().origin, path, { session: 'w3' });
    expect(byHeader.json).toEqual(named.json);
  });

  it('refuses a ?session= that contradicts X-Mock-Session', async () => {
    const both = await adminCall<{ code: string; message: string }>(mock().origin, 'requests?session=a', { session: 'b' });
    expect(both.status).toBe(400);
    expect(both.json.message).toBe('petstore-mock: X-Mock-Session says "b" and ?session= says "a"; give one of them.');
  });
});

describe('key filters by the whole key', () => {
  it.each([
    ['the whole key takes that key alone', () => B, [3, 4, 5]],
    ['the form findings show takes that key alone', ([a]: string[]) => `work…001 #${a}`, [1, 2]],
    ['the redacted form takes both, as before', () => 'work…001', [1, 2, 3, 4, 5]],
  ])('GET /__admin/requests?key=: %s', async (_name, keyOf, seqs) => {
    await traffic();
    const key = keyOf(await keyIdsOf(mock().origin));
    const { json } = await adminCall<JournalEntry[]>(mock().origin, `requests?session=w3&key=${encodeURIComponent(key)}`);
    expect(json.map((e) => e.seq)).toEqual(seqs);
  });

  it('entries carry the keyId of the whole key, salted by this mock; the audit judges the two keys apart', async () => {
    await traffic();
    const [idA, idB] = await keyIdsOf(mock().origin);
    // Neither the bare SHA-256 of the key nor any other salt's: guesses at the hidden characters cannot be checked against it.
    expect(idA).not.toBe(keyIdOf(A, ''));
    expect([idA, idB]).not.toContain(sha256Hex(B).slice(0, 8));
    const { json } = await adminCall<JournalEntry[]>(mock().origin, 'requests?session=w3');
    expect(json.map((e) => [e.key, e.keyId])).toEqual([
      ['work…001', idA],
      ['work…001', idA],
      ['work…001', idB],
      ['work…001', idB],
      ['work…001', idB],
    ]);
    const audit = await adminCall<AuditReport>(mock().origin, `audit?session=w3&key=${B}`);
    expect(audit.json).toEqual({ ok: true, findings: [], judged: { requests: 3, keys: [{ key: `work…001 #${idB}`, keyId: idB, requests: 3 }] } });
  });

  it('expectWellBehaved throws when it judged nothing, naming what has requests', async () => {
    await traffic();
    const [idA, idB] = await keyIdsOf(mock().origin);
    expect(() => mock().session('w3').expectWellBehaved({ key: 'worker-c-001' })).toThrow(
      `the client audit judged no requests: session "w3" has no requests with key "worker-c-001", so it proves nothing. Its journal has requests with: work…001 #${idB} (3), work…001 #${idA} (2).`,
    );
    expect(() => mock().session('w-3').expectWellBehaved()).toThrow(
      'the client audit judged no requests: session "w-3" has no requests in its journal, so it proves nothing. Sessions with requests: "w3" (5).',
    );
    expect(() => mock().session('w3').expectWellBehaved()).not.toThrow();
    await call(mock(), '/v1/pets?limit=1', { key: A, headers: { 'x-mock-session': 'w3' } });
    expect(() => mock().session('w3').expectWellBehaved()).toThrow(/\nThe journal \(GET \/__admin\/requests\?session=w3\) shows each request by its # number/);
  });
});
