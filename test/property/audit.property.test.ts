import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditJournal } from '../../src/core/audit/audit.js';
import type { JournalEntry } from '../../src/core/state/journal.js';

const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);
const KEYS = ['aaaa…001', 'bbbb…002', undefined] as const;

/** An answer as the engines journal it: status, code and the fields that go with them. */
const answer = fc.constantFrom(
  { status: 200 },
  { status: 201, method: 'POST' },
  { status: 429, code: 'rate_limited', retryAfter: 2 },
  { status: 429, code: 'rate_limited', retryAfter: 1 },
  { status: 429, code: 'key_banned', retryAfter: 5 },
  { status: 400, code: 'invalid_body', method: 'POST', digest: '0badbody-9' },
  { status: 401, code: 'invalid_api_key', digest: '0badkey0-0' },
  { status: 404, code: 'pet_not_found', path: '/v1/pets/9', digest: '00000404-0' },
  { status: 200, path: '/v1/pets/1' },
  { status: 410, code: 'endpoint_removed', path: '/v1/pets/1', digest: '00000410-0' },
);

/** Journals of up to 60 entries: several keys, instants that never go back, gaps from 0 to 3 s. */
const journals = fc.array(
  fc.record({ answer, key: fc.constantFrom(...KEYS), gap: fc.integer({ min: 0, max: 3000 }), duration: fc.integer({ min: 0, max: 3 }) }),
  {
    maxLength: 60,
  },
);

interface Step {
  answer: Partial<JournalEntry>;
  key: string | undefined;
  gap: number;
  duration: number;
}

function build(steps: Step[]): JournalEntry[] {
  let at = T0;
  return steps.map((s, i) => {
    at += s.gap;
    const entry: JournalEntry = {
      seq: i + 1,
      at: new Date(at).toISOString(),
      session: 'default',
      method: 'GET',
      path: '/v1/pets',
      query: '',
      status: 200,
      reason: 'r',
      durationMs: s.duration,
      ...s.answer,
    };
    if (s.key !== undefined) entry.key = s.key;
    return entry;
  });
}

describe('auditJournal on generated journals', () => {
  it("names only requests of the journal, oldest first, of the finding key; ok exactly when no error; narrowing by key keeps that key's findings", () => {
    fc.assert(
      fc.property(journals, (steps) => {
        const entries = build(steps);
        const bySeq = new Map(entries.map((e) => [e.seq, e]));
        const report = auditJournal(entries);
        expect(report.ok).toBe(!report.findings.some((f) => f.severity === 'error'));
        let previousFirst = 0;
        for (const f of report.findings) {
          expect(f.requests.length).toBeGreaterThan(0);
          expect([...f.requests].sort((a, b) => a - b)).toEqual(f.requests);
          expect(new Set(f.requests).size).toBe(f.requests.length);
          for (const seq of f.requests) expect(bySeq.get(seq)?.key ?? null).toBe(f.key);
          expect(f.requests[0]!).toBeGreaterThanOrEqual(previousFirst);
          previousFirst = f.requests[0]!;
        }
        for (const key of KEYS) {
          if (key === undefined) continue;
          expect(auditJournal(entries, { key }).findings).toEqual(report.findings.filter((f) => f.key === key));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds nothing in a journal of one key whose requests each wait out the Retry-After before', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(200, 201, 429), { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 40, maxLength: 40 }),
        (statuses, extra) => {
          let at = T0;
          let wait = 0;
          let refusals = 0;
          const entries: JournalEntry[] = statuses.map((status, i) => {
            at += wait + extra[i]!;
            refusals = status === 429 ? refusals + 1 : 0;
            // Each wait at least Retry-After (1 s), doubling along a run of 429s: no-backoff has nothing to say either.
            wait = status === 429 ? 1000 * 2 ** Math.min(refusals - 1, 8) : 0;
            const e: JournalEntry = {
              seq: i + 1,
              at: new Date(at).toISOString(),
              session: 'default',
              method: 'GET',
              path: '/v1/pets',
              query: '',
              status,
              reason: 'r',
              durationMs: 0.1,
              key: 'aaaa…001',
            };
            if (status === 429) Object.assign(e, { code: 'rate_limited', retryAfter: 1 });
            return e;
          });
          expect(auditJournal(entries)).toEqual({
            ok: true,
            findings: [],
            judged: { requests: entries.length, keys: entries.length === 0 ? [] : [{ key: 'aaaa…001', keyId: null, requests: entries.length }] },
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
