// The rules about how a client retries, on recorded journals: unsafe-create-retry, no-jitter and
// retry-after-misread.
import { describe, expect, it } from 'vitest';
import { auditJournal, type AuditReport } from '../../src/core/audit/audit.js';
import type { JournalEntry } from '../../src/core/state/journal.js';
import { keyIdOf } from '../../src/core/state/key-id.js';

/** Entries made here are of one deployment: any salt does, one throughout. */
const SALT = 'test-salt';

const T = Date.UTC(2026, 2, 10, 12, 0, 30);
const KEY = 'worker-a-001';

/** An entry that arrived `arrival` ms after T on connection `connection` (its `use`th request), decided at once. */
function entry(seq: number, arrival: number, fields: Partial<JournalEntry> = {}): JournalEntry {
  return {
    seq,
    at: new Date(T + Math.floor(arrival)).toISOString(),
    arrivalMs: T + arrival,
    session: 'default',
    method: 'GET',
    path: '/v1/pets',
    query: '',
    status: 200,
    reason: 'ok',
    durationMs: 0.2,
    key: 'work…001',
    keyId: keyIdOf(KEY, SALT),
    ...fields,
  };
}
const rules = (report: AuditReport) => report.findings.map((f) => [f.rule, f.requests]);
const create = (fields: Partial<JournalEntry> = {}): Partial<JournalEntry> => ({ method: 'POST', status: 201, digest: 'abcd1234-20', ...fields });

describe('unsafe-create-retry', () => {
  it.each([
    ['a reset', { fault: 'reset' as const, status: 503 }],
    ['an empty answer', { fault: 'empty' as const, status: 503 }],
    ['a truncated answer', { fault: 'truncate' as const, status: 201 }],
    ['a 500', { status: 500, code: 'internal_error' }],
    ['a 503', { status: 503, code: 'service_unavailable' }],
  ])('a create sent again unchanged after %s', (_name, fields) => {
    const entries = [entry(1, 0, create(fields)), entry(2, 500, create())];
    expect(rules(auditJournal(entries))).toEqual([['unsafe-create-retry', [1, 2]]]);
    expect(auditJournal(entries).findings[0]!.message).toMatch(/may have created it twice/);
  });

  it('a create sent again while the first was still being answered: a timeout', () => {
    const entries = [entry(1, 0, create({ delayMs: 5000 })), entry(2, 3000, create())];
    expect(rules(auditJournal(entries))).toEqual([['unsafe-create-retry', [1, 2]]]);
    expect(auditJournal(entries).findings[0]!.message).toMatch(/timed out/);
  });

  it.each([
    ['a 429 (nothing was done)', [entry(1, 0, create({ status: 429, code: 'rate_limited', retryAfter: 1 })), entry(2, 2000, create())]],
    ['a 201 then another animal', [entry(1, 0, create()), entry(2, 10, create({ digest: 'ffff0000-21' }))]],
    ['a 503, a look with GET, then the create', [entry(1, 0, create({ status: 503 })), entry(2, 100), entry(3, 200, create())]],
    ['a 503 and a different body', [entry(1, 0, create({ status: 503 })), entry(2, 100, create({ digest: 'ffff0000-21' }))]],
  ])('no finding after %s', (_name, entries) => {
    expect(rules(auditJournal(entries)).filter(([r]) => r === 'unsafe-create-retry')).toEqual([]);
  });
});

describe('no-jitter', () => {
  const limited = { status: 429, code: 'rate_limited', retryAfter: 1 };
  /** One caller per offset refused together at T, then their retries at 1000 ms plus each offset. */
  const herd = (offsets: number[]): JournalEntry[] => [
    ...offsets.map((_o, c) => entry(c + 1, 0, { ...limited, connection: c + 1, connectionUse: 1 })),
    ...offsets.map((o, c) => entry(offsets.length + c + 1, 1000 + o, { connection: c + 1, connectionUse: 2 })),
  ];
  it.each([
    ['within a few ms of one another', [0, 2, 4, 6]],
    ['within the 100 ms a busy machine blurs a lockstep by', [0, 30, 70, 100]],
  ])('four callers refused together retrying %s', (_name, offsets) => {
    const entries = herd(offsets);
    expect(rules(auditJournal(entries))).toEqual([['no-jitter', [1, 2, 3, 4, 5, 6, 7, 8]]]);
    expect(auditJournal(entries).findings[0]).toMatchObject({ severity: 'warning', message: expect.stringMatching(/jitter/) });
  });

  it.each([
    ['spread by jitter', [0, 140, 410, 720]],
    ['spread just past the window', [0, 30, 70, 101]],
    ['of three callers only, however close', [0, 1, 2]],
  ])('no finding for retries %s', (_name, offsets) => {
    expect(rules(auditJournal(herd(offsets)))).toEqual([]);
  });
});

describe('retry-after-misread', () => {
  const limited = (fields: Partial<JournalEntry> = {}) => ({
    status: 429,
    code: 'rate_limited',
    retryAfter: 30,
    rateReset: (T + 30_000) / 1000,
    connection: 1,
    ...fields,
  });
  it('a wait of Retry-After milliseconds', () => {
    const entries = [entry(1, 0, { connection: 1, connectionUse: 1 }), entry(2, 1, limited({ connectionUse: 2 })), entry(3, 33, limited({ connectionUse: 3 }))];
    expect(rules(auditJournal(entries))).toEqual([
      ['early-retry', [2, 3]],
      ['retry-after-misread', [2, 3]],
    ]);
    expect(auditJournal(entries).findings[1]!.message).toMatch(/30 milliseconds, the header read in the wrong unit/);
  });

  it('an HTTP-date form retried before its date', () => {
    const entries = [
      entry(1, 0, { connection: 1, connectionUse: 1 }),
      entry(2, 1, limited({ connectionUse: 2, retryAfterForm: 'http-date' })),
      entry(3, 100, limited({ connectionUse: 3 })),
    ];
    expect(rules(auditJournal(entries))).toContainEqual(['retry-after-misread', [2, 3]]);
    expect(auditJournal(entries).findings.find((f) => f.rule === 'retry-after-misread')!.message).toMatch(/HTTP-date/);
  });

  it.each([
    ['an immediate retry is an early retry, not a misread', 2],
    ['a wait of the seconds is kept', 30_001],
  ])('%s', (_name, at) => {
    const entries = [
      entry(1, 0, { connection: 1, connectionUse: 1 }),
      entry(2, 1, limited({ connectionUse: 2 })),
      entry(3, at, { connection: 1, connectionUse: 3 }),
    ];
    expect(rules(auditJournal(entries)).filter(([r]) => r === 'retry-after-misread')).toEqual([]);
  });

  it('a loop that retries at once on a busy machine, every gap about Retry-After milliseconds, is an early retry, not a misread', () => {
    const entries = [
      entry(1, 0, { connection: 1, connectionUse: 1 }),
      entry(2, 40, limited({ connectionUse: 2 })),
      entry(3, 80, limited({ connectionUse: 3 })),
      entry(4, 121, limited({ connectionUse: 4 })),
    ];
    const found = rules(auditJournal(entries)).map(([r]) => r);
    expect(found).toContain('early-retry');
    expect(found).not.toContain('retry-after-misread');
  });
});
