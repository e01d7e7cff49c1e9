// The shapes of the client audit and the readings of a journal entry its rules share.
import type { JournalEntry } from '../state/journal.js';

/** The audit's rule ids; docs/audit.md defines each. */
export type AuditRule =
  | 'early-retry'
  | 'no-backoff'
  | 'request-while-banned'
  | 'deprecated-call'
  | 'call-after-removal'
  | 'repeated-rejected-request'
  | 'unsafe-create-retry'
  | 'no-jitter'
  | 'retry-after-misread';

export type AuditSeverity = 'error' | 'warning';

/** One thing a client did that the specification asks it not to. */
export interface AuditFinding {
  rule: AuditRule;
  severity: AuditSeverity;
  /**
   * The key as the journal shows it (redacted), followed by ` #` and its `keyId` when another key
   * of the journal redacts alike; null for requests without a valid key.
   */
  key: string | null;
  /** The key's fingerprint (the journal's `keyId`); null without a valid key or for entries without one. */
  keyId: string | null;
  /** The journal `seq` numbers that show it, oldest first. */
  requests: number[];
  /** What the client did and what the specification asks, in a sentence. */
  message: string;
}

/** How many requests of one key the audit judged. */
export interface AuditedKey {
  /** As findings show it; null for the requests without a valid key. */
  key: string | null;
  keyId: string | null;
  requests: number;
}

/** The audit of a session's journal: `ok` is false exactly when an error finding exists. */
export interface AuditReport {
  ok: boolean;
  findings: AuditFinding[];
  /** How many journal entries it judged, and of which keys (most requests first); zero judged proves nothing. */
  judged: { requests: number; keys: AuditedKey[] };
}

/** A key as a finding names it: how a person reads it, and its fingerprint. */
export interface KeyName {
  label: string;
  id: string | null;
}

/** Each rule's severity, in the order findings of the same first request are listed. */
export const AUDIT_RULES: Readonly<Record<AuditRule, AuditSeverity>> = {
  'early-retry': 'error',
  'request-while-banned': 'error',
  'call-after-removal': 'error',
  'repeated-rejected-request': 'error',
  'retry-after-misread': 'error',
  'unsafe-create-retry': 'warning',
  'no-backoff': 'warning',
  'no-jitter': 'warning',
  'deprecated-call': 'warning',
};

export function finding(rule: AuditRule, key: KeyName | undefined, requests: number[], message: string): AuditFinding {
  return { rule, severity: AUDIT_RULES[rule], key: key?.label ?? null, keyId: key?.id ?? null, requests, message };
}

/**
 * Parses journal instants, remembering the last one: the engines share one string among the
 * entries of a millisecond, and on a frozen clock every entry has the same instant.
 */
function instantParser(): (iso: string) => number {
  let last = '';
  let value = NaN;
  return (iso) => {
    if (iso !== last) {
      value = Date.parse(iso);
      last = iso;
    }
    return value;
  };
}
const parseAt = instantParser();
const parseRealAt = instantParser();

/** The entry's instant on the session clock, in epoch milliseconds. */
export function clockMs(entry: JournalEntry): number {
  return parseAt(entry.at);
}

/**
 * A real instant no earlier than the request's decision, for entries written without `arrivalMs`
 * (another version): `at` when the session clock is real, otherwise `realAt`.
 */
function decidedRealMs(entry: JournalEntry): number {
  return entry.realAt === undefined ? parseAt(entry.at) : parseRealAt(entry.realAt);
}

/**
 * When the answer left the mock, in real time, scenario latency included: from the recorded
 * arrival, the wait for the core and the core's time; for older entries, a bound from `at`.
 */
export function answeredMs(entry: JournalEntry): number {
  if (entry.arrivalMs !== undefined) return entry.arrivalMs + (entry.queuedMs ?? 0) + entry.durationMs + (entry.delayMs ?? 0);
  return decidedRealMs(entry) + (entry.realAt === undefined ? entry.durationMs : 0) + (entry.delayMs ?? 0);
}

/** A whole number of the answer's headers as recorded with details, or undefined. */
function recordedNumber(entry: JournalEntry, header: string): number | undefined {
  const value = entry.details?.response.headers[header];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The answer's `Retry-After` in seconds: the entry's field, or the recorded header when details were on. */
export function retryAfterOf(entry: JournalEntry): number | undefined {
  return entry.retryAfter ?? recordedNumber(entry, 'Retry-After');
}

/** The `X-RateLimit-Reset` a 429 announced, in epoch milliseconds: the entry's field, or the recorded header. */
function resetOf(entry: JournalEntry): number | undefined {
  // Every answer reports a window's reset; only a 429's is the end of the wait it announces.
  if (entry.status !== 429) return undefined;
  const reset = entry.rateReset ?? recordedNumber(entry, 'X-RateLimit-Reset');
  return reset === undefined ? undefined : reset * 1000;
}

/**
 * Where the wait a 429 announced ends on the session clock: at the earlier of its instant plus
 * `Retry-After` and the `X-RateLimit-Reset` it announced, since a client may compute either (and
 * `Retry-After`, in whole seconds, is rounded up). Undefined without a `Retry-After`.
 */
export function waitEndOf(entry: JournalEntry): number | undefined {
  const retry = retryAfterOf(entry);
  if (retry === undefined) return undefined;
  // An HTTP-date names a whole second: the wait ends at that second, not a fraction past it.
  const byRetry = entry.retryAfterForm === 'http-date' ? Math.floor(clockMs(entry) / 1000 + retry) * 1000 : clockMs(entry) + retry * 1000;
  const reset = resetOf(entry);
  return reset === undefined ? byRetry : Math.min(byRetry, reset);
}

/**
 * Whether a request was in flight when an earlier answer left the mock (`answered`, from
 * `answeredMs`): it arrived before then, so its client could not have read that answer before
 * sending it. Arrivals are stamped per turn of the mock's event loop (src/http/arrival.ts), so
 * requests read together count as arrived together. Entries of another version without
 * `arrivalMs` are judged as before: only a request the journal proves earlier, by whole milliseconds.
 */
export function inFlight(entry: JournalEntry, answered: number): boolean {
  if (entry.arrivalMs !== undefined) return entry.arrivalMs < answered;
  return decidedRealMs(entry) + 1 <= answered;
}

/**
 * How long after a 429 left the mock a request that opened a connection of its own is still taken
 * for a parallel caller's request that was on its way. Callers sent together reach the mock spread
 * over milliseconds, each on a new connection (measured here: up to 28 ms, and 190 ms for four
 * Python threads that each built an httpx client first); a retry comes on a connection that carried
 * a request before, which this never excuses (Node's fetch may retry on another of its pooled
 * connections, still not a new one).
 */
export const PARALLEL_GRACE_MS = 250;

/** A connection's name across a deployment: instances number their own (`instance` is set on a shared state). */
export function connectionName(entry: JournalEntry): string | undefined {
  return entry.connection === undefined ? undefined : `${entry.instance ?? ''}/${entry.connection}`;
}

/**
 * Whether a request opened its connection: its first request ever, whatever session or key the
 * connection carried (`connectionUse`), since real clients pool connections across both. Entries
 * of another version without the count fall back on `seen`, the connections of earlier entries.
 */
export function onNewConnection(entry: JournalEntry, seen: ReadonlySet<string>): boolean {
  if (entry.connectionUse !== undefined) return entry.connectionUse === 1;
  const name = connectionName(entry);
  return name !== undefined && !seen.has(name);
}

/**
 * Whether a request's client cannot have read the 429 answered at `answered` before sending it:
 * it was in flight then, or it is the first request of a new connection (`onNewConnection`) and
 * came within `PARALLEL_GRACE_MS`: a parallel caller. Entries without a connection (the Fetch
 * handler's, another version's) are judged by `inFlight`.
 */
export function unread(entry: JournalEntry, answered: number, seen: ReadonlySet<string>): boolean {
  if (inFlight(entry, answered)) return true;
  if (entry.arrivalMs === undefined || !onNewConnection(entry, seen)) return false;
  return entry.arrivalMs < answered + PARALLEL_GRACE_MS;
}

/** "#3", "#3, #4 and #5", or the first few and how many more. */
export function seqList(seqs: readonly number[]): string {
  const shown = seqs.slice(0, 8).map((s) => `#${s}`);
  if (seqs.length > 8) return `${shown.join(', ')} and ${seqs.length - 8} more`;
  if (shown.length === 1) return shown[0]!;
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** Milliseconds as seconds for a sentence: "0.004 s", "1.5 s". */
export function secondsText(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** How a finding names its key in a sentence. */
export function keyText(key: KeyName | undefined): string {
  return key === undefined ? 'no valid key' : `key ${key.label}`;
}
