// The client audit: whether the requests a session received behave as the specification asks.
// A pure function of the journal, so it runs the same on memory, Redis and in the browser build.
import type { KeyIds } from '../state/key-id.js';
import { named } from '../errors.js';
import { DEFAULT_REMOVAL_AT } from '../pipeline/deprecation.js';
import type { JournalEntry } from '../state/journal.js';
import { keyMatcher } from '../state/journal-query.js';
import { keyLabel } from '../state/key-id.js';
import { AUDIT_RULES, plural, type AuditedKey, type AuditFinding, type AuditReport, type AuditRule, type KeyName } from './findings.js';
import { rateFindings } from './rate-rules.js';
import { requestFindings } from './request-rules.js';
import { retryFindings } from './retry-rules.js';

export type { AuditedKey, AuditFinding, AuditReport, AuditRule, AuditSeverity } from './findings.js';
export { AUDIT_RULES } from './findings.js';

/** What to audit besides the journal. */
export interface AuditOptions {
  /** Only this key's requests: the whole key, as the journal shows it redacted, or as findings show it (`work…001 #3fa2c1d0`). */
  key?: string;
  /** When the session removes `GET /v1/pets/{petId}` (5 December 2030 unless a scenario moves it), for the messages. */
  removalAt?: number;
  /** The deployment's key ids, for a whole `key`; without them a whole key takes every key that redacts as it does. */
  keyIds?: KeyIds;
}

/** Options of `expectWellBehaved`. */
export interface WellBehavedOptions {
  /** Fail on warnings too (no-backoff, deprecated-call), not only on errors. */
  warnings?: boolean;
  /** Only this key's requests. */
  key?: string;
}

/** What `assertWellBehaved` can say when the audit judged nothing: what it was given and what has requests. */
export interface AuditScope {
  /** The session audited (`X-Mock-Session`); undefined for the default one. */
  session?: string;
  /** The key the audit was narrowed to. */
  key?: string;
  /** The keys with requests in the session's journal. */
  keys?: AuditedKey[];
  /** The sessions whose journals hold requests. */
  sessions?: { id: string; requests: number }[];
}

const RULE_ORDER = Object.keys(AUDIT_RULES) as AuditRule[];

/** Which key an entry's requests are judged with: its fingerprint, or (entries without one) its redacted form. */
function groupOf(entry: JournalEntry): string {
  return entry.keyId ?? `~${entry.key ?? ''}`;
}

/**
 * How findings name each key of the entries: redacted, with its id added where two keys of the
 * journal redact alike, so a person can tell them apart.
 */
function keyNames(entries: readonly JournalEntry[]): (entry: JournalEntry) => KeyName {
  const idsByShown = new Map<string, Set<string>>();
  for (const e of entries) {
    if (e.key === undefined) continue;
    let ids = idsByShown.get(e.key);
    if (!ids) idsByShown.set(e.key, (ids = new Set()));
    ids.add(groupOf(e));
  }
  return (e) => ({ label: keyLabel(e.key ?? '', e.keyId, (idsByShown.get(e.key ?? '')?.size ?? 0) > 1), id: e.keyId ?? null });
}

/** How many entries each key has, most first; the entries without a valid key last. */
function countKeys(entries: readonly JournalEntry[], name: (entry: JournalEntry) => KeyName): AuditedKey[] {
  const counts = new Map<string, AuditedKey>();
  let keyless = 0;
  for (const e of entries) {
    if (e.key === undefined) {
      keyless++;
      continue;
    }
    const id = groupOf(e);
    const seen = counts.get(id);
    if (seen) seen.requests++;
    else {
      const { label, id: keyId } = name(e);
      counts.set(id, { key: label, keyId, requests: 1 });
    }
  }
  const keys = [...counts.values()].sort((a, b) => b.requests - a.requests);
  if (keyless > 0) keys.push({ key: null, keyId: null, requests: keyless });
  return keys;
}

/** The keys with requests in a journal, as `judged.keys` lists them. */
export function journalKeys(entries: readonly JournalEntry[]): AuditedKey[] {
  return countKeys(entries, keyNames(entries));
}

/**
 * Audits a session's journal (oldest first): one pass per rule family, linear in the entries.
 * Findings come in the order of their first request; `judged` says what was looked at.
 */
export function auditJournal(entries: readonly JournalEntry[], options: AuditOptions = {}): AuditReport {
  const only = options.key === undefined || options.key === '' ? undefined : keyMatcher(options.key, options.keyIds);
  const picked = only === undefined ? entries : entries.filter((e) => only.test(e));
  // Names are decided over the whole journal: a key narrowed to is shown as it is everywhere else.
  const name = keyNames(entries);
  const findings = [
    ...rateFindings(picked, groupOf, name),
    ...requestFindings(picked, options.removalAt ?? DEFAULT_REMOVAL_AT, groupOf, name),
    ...retryFindings(picked, groupOf, name),
  ];
  findings.sort((a, b) => a.requests[0]! - b.requests[0]! || RULE_ORDER.indexOf(a.rule) - RULE_ORDER.indexOf(b.rule));
  return { ok: !findings.some((f) => f.severity === 'error'), findings, judged: { requests: picked.length, keys: countKeys(picked, name) } };
}

function line(f: AuditFinding): string {
  return `  ${f.rule} (${f.severity}${f.key === null ? '' : `, key ${f.key}`}): ${f.message}`;
}

function keysText(keys: readonly AuditedKey[]): string {
  return keys.map((k) => `${k.key === null ? 'no valid key' : k.key} (${k.requests})`).join(', ');
}

/** The error of an audit that judged nothing: a test that proves nothing must not pass. */
function nothingJudged(scope: AuditScope): Error {
  const where = scope.session === undefined ? 'the default session' : `session ${JSON.stringify(scope.session)}`;
  const what = scope.key === undefined ? `${where} has no requests in its journal` : `${where} has no requests with key ${JSON.stringify(scope.key)}`;
  const hints: string[] = [];
  if (scope.key !== undefined && scope.keys && scope.keys.length > 0) hints.push(`Its journal has requests with: ${keysText(scope.keys)}.`);
  const others = (scope.sessions ?? []).filter((s) => s.requests > 0 && s.id !== (scope.session ?? 'default'));
  if (others.length > 0) hints.push(`Sessions with requests: ${others.map((s) => `${JSON.stringify(s.id)} (${s.requests})`).join(', ')}.`);
  if (hints.length === 0)
    hints.push(
      'No session has requests: check that the client reached this mock (its URL, X-Mock-Session header) and that nothing reset the journal before the audit.',
    );
  return auditError(`the client audit judged no requests: ${what}, so it proves nothing. ${hints.join(' ')}`);
}

function auditError(reason: string): Error {
  const error = new Error(named(reason));
  error.name = 'ClientAuditError';
  return error;
}

/**
 * Throws an Error listing every error finding (and warning, with `warnings`), so a test asserts
 * in one line that a client behaved; throws too when the audit judged no request at all (a
 * mistyped key or session), naming what `scope` says has requests. Returns the report otherwise.
 */
export function assertWellBehaved(report: AuditReport, options: WellBehavedOptions = {}, scope: AuditScope = {}): AuditReport {
  if (report.judged.requests === 0) throw nothingJudged({ ...scope, key: scope.key ?? options.key });
  const listed = report.findings.filter((f) => f.severity === 'error' || options.warnings === true);
  if (listed.length === 0) return report;
  const errors = listed.filter((f) => f.severity === 'error').length;
  const warnings = listed.length - errors;
  const counts = [errors > 0 ? plural(errors, 'error') : '', warnings > 0 ? plural(warnings, 'warning') : ''].filter(Boolean).join(' and ');
  const journal = `GET /__admin/requests${scope.session === undefined ? '' : `?session=${encodeURIComponent(scope.session)}`}`;
  throw auditError(
    `the client did not behave as the specification asks: the audit found ${counts}.\n${listed.map(line).join('\n')}\nThe journal (${journal}) shows each request by its # number; docs/audit.md defines the rules.`,
  );
}
