// The client audit's judgement on recorded journals: arrivals, waits to the announced reset, keys
// told apart by their whole key, what it judged, the trend of waits and the 429 a request broke.
import { describe, expect, it } from 'vitest';
import { assertWellBehaved, auditJournal, type AuditReport } from '../../src/core/audit/audit.js';
import { backsOff } from '../../src/core/audit/rate-rules.js';
import type { JournalEntry } from '../../src/core/state/journal.js';
import { KeyIds, keyIdOf, newKeySalt, sha256Hex } from '../../src/core/state/key-id.js';
import { createHash } from 'node:crypto';

/** Entries made here are of one deployment: any salt does, one throughout. */
const SALT = 'test-salt';

/** 12:00:59.500 on the session clock, which runs with real time in these journals. */
const T = Date.UTC(2026, 2, 10, 12, 0, 59, 500);
const A = 'worker-a-001';
const B = 'worker-b-001';

/** An entry as the engine writes it for a request that arrived `arrival` ms after T and was decided `decided` ms after. */
function entry(seq: number, arrival: number, fields: Partial<JournalEntry> = {}, key = A, decided = arrival): JournalEntry {
  return {
    seq,
    at: new Date(T + Math.floor(decided)).toISOString(),
    arrivalMs: T + arrival,
    session: 'default',
    method: 'GET',
    path: '/v1/pets',
    query: '',
    status: 200,
    reason: 'ok',
    durationMs: 0.2,
    key: 'work…001',
    keyId: keyIdOf(key, SALT),
    ...fields,
  };
}

/** A 429 of the minute's window: Retry-After 1 s, X-RateLimit-Reset at 12:01:00. */
const limited = { status: 429, code: 'rate_limited', retryAfter: 1, rateReset: (T + 500) / 1000 };
const rules = (report: AuditReport) => report.findings.map((f) => [f.rule, f.requests]);

describe('in flight by arrival', () => {
  it.each([
    ['four requests read in one turn: three refused, none early', [0, 0, 0, 0], []],
    ['the later ones arrived while the 429 was being answered', [0, 0.05, 0.1, 0.15], []],
    ['one arrived after the 429 had left: early', [0, 0, 0.5, 0.6], [['early-retry', [2, 3, 4]]]],
  ] as const)('%s', (_name, arrivals, expected) => {
    const entries = arrivals.map((t, i) => entry(i + 1, t, i === 0 ? {} : limited));
    entries.push(entry(5, 1000), entry(6, 1000.1));
    expect(rules(auditJournal(entries))).toEqual(expected);
  });

  it.each([
    ['on new connections, a few ms after the 429: parallel callers', [2, 3, 4], [5, 8, 20], []],
    [
      'on the connection the 429 came on: a retry',
      [1, 1, 1],
      [5, 8, 20],
      [
        ['early-retry', [2, 3, 4, 5]],
        ['no-backoff', [2, 3, 4, 5]],
      ],
    ],
    ['on another connection, past the 250 ms grace', [2, 3, 4], [5, 8, 300], [['early-retry', [2, 5]]]],
  ] as const)('requests %s', (_name, connections, arrivals, expected) => {
    const entries = [entry(1, 0, { connection: 1 }), entry(2, 1, { ...limited, connection: 1 })];
    connections.forEach((connection, i) => entries.push(entry(i + 3, arrivals[i]!, { ...limited, connection })));
    entries.push(entry(6, 1000, { connection: 1 }));
    expect(rules(auditJournal(entries))).toEqual(expected);
  });

  it('never excuses a request on a connection that carried one before, as a pooled retry does', () => {
    const entries = [entry(1, 0, { connection: 7 }), entry(2, 1, { ...limited, connection: 1 }), entry(3, 4, { ...limited, connection: 7 }), entry(4, 1000)];
    expect(rules(auditJournal(entries))).toEqual([['early-retry', [2, 3]]]);
  });

  it.each([
    ['the first request its connection carried: a parallel caller', 1, []],
    ['a connection that carried another session or key before: a pooled retry', 3, [['early-retry', [2, 3]]]],
  ] as const)('judges a connection new by its whole history (connectionUse): %s', (_name, connectionUse, expected) => {
    const entries = [entry(1, 0, { connection: 1, connectionUse: 1 }), entry(2, 1, { ...limited, connection: 1, connectionUse: 2 })];
    entries.push(entry(3, 85, { ...limited, connection: 2, connectionUse }), entry(4, 1000, { connection: 1, connectionUse: 3 }));
    expect(rules(auditJournal(entries))).toEqual(expected);
  });

  it('tells the connections of two instances of a shared state apart', () => {
    const entries = [entry(1, 0, { connection: 1, instance: 'a:1' }), entry(2, 1, { ...limited, connection: 1, instance: 'a:1' })];
    entries.push(entry(3, 85, { ...limited, connection: 1, instance: 'b:2' }), entry(4, 1000, { connection: 1, instance: 'a:1' }));
    expect(rules(auditJournal(entries))).toEqual([]);
  });

  it('leaves requests in flight out of a no-backoff run', () => {
    const entries = [entry(1, 0), ...[0, 0, 0, 0, 0].map((t, i) => entry(i + 2, t, limited)), entry(7, 1000)];
    expect(auditJournal(entries).findings).toEqual([]);
  });
});

describe('the end of a wait', () => {
  it.each([
    ['at the announced X-RateLimit-Reset (before the 429 plus Retry-After)', 500, []],
    ['at the 429 plus Retry-After', 1000, []],
    ['before both', 300, [['early-retry', [2, 3]]]],
  ] as const)('a retry %s', (_name, retryAt, expected) => {
    const entries = [entry(1, 0), entry(2, 0.5, limited), entry(3, retryAt)];
    expect(rules(auditJournal(entries))).toEqual(expected);
  });

  it('names the 429 whose wait was broken, not the first of the wait', () => {
    // #2 is answered 600 ms late (latency): #3 arrives meanwhile, in flight, and its 429 moves the wait's end.
    const entries = [
      entry(1, 0),
      entry(2, 1, { status: 429, code: 'rate_limited', retryAfter: 10, delayMs: 600 }),
      entry(3, 500, { status: 429, code: 'rate_limited', retryAfter: 10 }),
      entry(4, 10_200),
    ];
    const report = auditJournal(entries);
    expect(rules(report)).toEqual([['early-retry', [3, 4]]]);
    expect(report.findings[0]!.message).toMatch(
      /^1 request with key work…001 \(#4\) came before the Retry-After of 10 s of the 429 at #3 had passed on the session clock, the first 9\.7 s after it\./,
    );
  });
});

describe('keys that redact alike', () => {
  // A is allowed 1 a minute and waits; B has its own quota and keeps going meanwhile.
  const entries = [entry(1, 0), entry(2, 1, limited), entry(3, 100, {}, B), entry(4, 200, {}, B), entry(5, 300, {}, B), entry(6, 1000)];

  it('are judged apart by keyId, and named with it', () => {
    const report = auditJournal(entries);
    expect(report.findings).toEqual([]);
    expect(report.judged).toEqual({
      requests: 6,
      keys: [
        { key: `work…001 #${keyIdOf(A, SALT)}`, keyId: keyIdOf(A, SALT), requests: 3 },
        { key: `work…001 #${keyIdOf(B, SALT)}`, keyId: keyIdOf(B, SALT), requests: 3 },
      ],
    });
  });

  it.each([
    ['the whole key', B, 3],
    ['the form findings show', `work…001 #${keyIdOf(B, SALT)}`, 3],
    ['the redacted form, which takes both', 'work…001', 6],
  ])('narrow by %s', (_name, key, judged) => {
    expect(auditJournal(entries, { key, keyIds: new KeyIds(SALT) }).judged.requests).toBe(judged);
  });

  it("without the deployment's key ids, a whole key takes every key that shows as it does", () => {
    expect(auditJournal(entries, { key: B }).judged.requests).toBe(6);
  });

  it('a finding names its key told apart', () => {
    const early = [entry(1, 0), entry(2, 1, limited), entry(3, 100, limited), entry(4, 150, {}, B)];
    expect(auditJournal(early).findings.map((f) => [f.rule, f.key, f.keyId])).toEqual([['early-retry', `work…001 #${keyIdOf(A, SALT)}`, keyIdOf(A, SALT)]]);
  });

  it('keyId is the first 8 hex digits of the SHA-256 of the salt, a NUL and the whole key', () => {
    for (const text of ['', A, 'é'.repeat(40), 'x'.repeat(55), 'x'.repeat(56), 'y'.repeat(64)]) {
      const expected = createHash('sha256').update(text).digest('hex');
      expect(sha256Hex(text)).toBe(expected);
      expect(keyIdOf(text, SALT)).toBe(createHash('sha256').update(`${SALT}\u0000${text}`).digest('hex').slice(0, 8));
    }
  });

  it('is salted: one key has another id under another salt, and no id is the bare SHA-256 of the key', () => {
    const salts = [newKeySalt(), newKeySalt()];
    expect(salts[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(salts[0]).not.toBe(salts[1]);
    const ids = salts.map((salt) => new KeyIds(salt).of(A));
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids).not.toContain(sha256Hex(A).slice(0, 8));
  });
});

describe('an audit that judged nothing', () => {
  const entries = [entry(1, 0), entry(2, 10, {}, B)];

  it('says so in the report', () => {
    expect(auditJournal(entries, { key: 'worker-c-001', keyIds: new KeyIds(SALT) })).toEqual({ ok: true, findings: [], judged: { requests: 0, keys: [] } });
  });

  it('throws naming the key it was given and the keys that have requests', () => {
    const report = auditJournal(entries, { key: 'worker-c-001', keyIds: new KeyIds(SALT) });
    expect(() => assertWellBehaved(report, { key: 'worker-c-001' }, { keys: auditJournal(entries).judged.keys })).toThrow(
      `petstore-mock: the client audit judged no requests: the default session has no requests with key "worker-c-001", so it proves nothing. Its journal has requests with: work…001 #${keyIdOf(A, SALT)} (1), work…001 #${keyIdOf(B, SALT)} (1).`,
    );
  });

  it('throws naming the session it was given and the sessions that have requests', () => {
    expect(() =>
      assertWellBehaved(
        auditJournal([]),
        {},
        {
          session: 'worker3',
          sessions: [
            { id: 'default', requests: 0 },
            { id: 'worker-3', requests: 4 },
          ],
        },
      ),
    ).toThrow(
      'petstore-mock: the client audit judged no requests: session "worker3" has no requests in its journal, so it proves nothing. Sessions with requests: "worker-3" (4).',
    );
  });
});

describe('no-backoff judges the whole run of waits', () => {
  it.each([
    ['doubling', [100, 200, 400, 800], true],
    ['doubling with one jittered step', [1000, 2300, 1900, 4100, 8000], true],
    ['eight waits of 0.1 s, then one of 0.25 s', [100, 100, 100, 100, 100, 100, 100, 100, 250], false],
    ['a fixed 100 ms', [100, 101, 103, 100], false],
    ['a fixed 200 ms', [200, 204, 201], false],
    ['growing by a few ms', [100, 110, 121, 133], false],
    ['two waits, the second longer', [1000, 2000], true],
    ['two waits, the second shorter', [2000, 1000], false],
  ] as const)('%s: backs off %s', (_name, gaps, expected) => {
    expect(backsOff(gaps)).toBe(expected);
  });

  it('a run of 429s whose waits stay flat but for the last is a finding', () => {
    let at = 0;
    const entries = [entry(1, 0)];
    for (const [i, gap] of [0, 100, 100, 100, 100, 100, 100, 100, 100, 250].entries()) {
      at += gap;
      entries.push(entry(i + 2, at, { status: 429, code: 'rate_limited' }));
    }
    expect(rules(auditJournal(entries))).toEqual([['no-backoff', [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]]);
  });
});
