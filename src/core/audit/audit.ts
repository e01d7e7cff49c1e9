// The client audit: whether the requests a session received behave as the specification asks.
// A pure function of the journal, so it runs the same on memory, Redis and in the browser build.
import { named } from '../errors.js';
import { redactKey } from '../pipeline/auth.js';
import { DEFAULT_REMOVAL_AT } from '../pipeline/deprecation.js';
import type { JournalEntry } from '../state/journal.js';
import { AUDIT_RULES, type AuditFinding, type AuditReport, type AuditRule } from './findings.js';
import { rateFindings } from './rate-rules.js';
import { requestFindings } from './request-rules.js';

export type { AuditFinding, AuditReport, AuditRule, AuditSeverity } from './findings.js';
export { AUDIT_RULES } from './findings.js';

/** What to audit besides the journal. */
export interface AuditOptions {
  /** Only this key's requests: the whole key, or as the journal shows it redacted. */
  key?: string;
  /** When the session removes `GET /v1/pets/{petId}` (5 December 2030 unless a scenario moves it), for the messages. */
  removalAt?: number;
}

/** Options of `expectWellBehaved`. */
export interface WellBehavedOptions {
  /** Fail on warnings too (no-backoff, deprecated-call), not only on errors. */
  warnings?: boolean;
  /** Only this key's requests. */
  key?: string;
}

const RULE_ORDER = Object.keys(AUDIT_RULES) as AuditRule[];

/** The journal key form of a key given whole or already redacted, as the journal filter reads it. */
export function journalKey(key: string): string {
  return key.includes('…') || key === '****' ? key : redactKey(key);
}

/**
 * Audits a session's journal (oldest first): one pass per rule family, linear in the entries.
 * Findings come in the order of their first request.
 */
export function auditJournal(entries: readonly JournalEntry[], options: AuditOptions = {}): AuditReport {
  const only = options.key === undefined || options.key === '' ? undefined : journalKey(options.key);
  const picked = only === undefined ? entries : entries.filter((e) => e.key === only);
  const findings = [...rateFindings(picked), ...requestFindings(picked, options.removalAt ?? DEFAULT_REMOVAL_AT)];
  findings.sort((a, b) => a.requests[0]! - b.requests[0]! || RULE_ORDER.indexOf(a.rule) - RULE_ORDER.indexOf(b.rule));
  return { ok: !findings.some((f) => f.severity === 'error'), findings };
}

function line(f: AuditFinding): string {
  return `  ${f.rule} (${f.severity}${f.key === null ? '' : `, key ${f.key}`}): ${f.message}`;
}

/**
 * Throws an Error listing every error finding (and warning, with `warnings`), so a test asserts
 * in one line that a client behaved; returns the report when nothing is to be listed.
 */
export function assertWellBehaved(report: AuditReport, options: WellBehavedOptions = {}): AuditReport {
  const listed = report.findings.filter((f) => f.severity === 'error' || options.warnings === true);
  if (listed.length === 0) return report;
  const errors = listed.filter((f) => f.severity === 'error').length;
  const warnings = listed.length - errors;
  const counts = [errors > 0 ? `${errors} error${errors === 1 ? '' : 's'}` : '', warnings > 0 ? `${warnings} warning${warnings === 1 ? '' : 's'}` : '']
    .filter(Boolean)
    .join(' and ');
  const error = new Error(
    named(
      `the client did not behave as the specification asks: the audit found ${counts}.\n${listed.map(line).join('\n')}\nThe journal (GET /__admin/requests) shows each request by its # number; docs/audit.md defines the rules.`,
    ),
  );
  error.name = 'ClientAuditError';
  throw error;
}
