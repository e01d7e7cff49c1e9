// The shapes of the client audit and the readings of a journal entry its rules share.
import type { JournalEntry } from '../state/journal.js';

/** The audit's rule ids; docs/audit.md defines each. */
export type AuditRule = 'early-retry' | 'no-backoff' | 'request-while-banned' | 'deprecated-call' | 'call-after-removal' | 'repeated-rejected-request';

export type AuditSeverity = 'error' | 'warning';

/** One thing a client did that the specification asks it not to. */
export interface AuditFinding {
  rule: AuditRule;
  severity: AuditSeverity;
  /** The key as the journal shows it (redacted); null for requests without a valid key. */
  key: string | null;
  /** The journal `seq` numbers that show it, oldest first. */
  requests: number[];
  /** What the client did and what the specification asks, in a sentence. */
  message: string;
}

/** The audit of a session's journal: `ok` is false exactly when an error finding exists. */
export interface AuditReport {
  ok: boolean;
  findings: AuditFinding[];
}

/** Each rule's severity, in the order findings of the same first request are listed. */
export const AUDIT_RULES: Readonly<Record<AuditRule, AuditSeverity>> = {
  'early-retry': 'error',
  'request-while-banned': 'error',
  'call-after-removal': 'error',
  'repeated-rejected-request': 'error',
  'no-backoff': 'warning',
  'deprecated-call': 'warning',
};

export function finding(rule: AuditRule, key: string | undefined, requests: number[], message: string): AuditFinding {
  return { rule, severity: AUDIT_RULES[rule], key: key ?? null, requests, message };
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
 * A real instant no earlier than the request's arrival: `at` when the session clock is real (read
 * as the request arrives); otherwise `realAt`, which the in-memory engine takes as it answers and
 * the Redis engine as the state decides.
 */
export function arrivedByMs(entry: JournalEntry): number {
  return entry.realAt === undefined ? parseAt(entry.at) : parseRealAt(entry.realAt);
}

/** A real instant no later than the one the answer left the mock, scenario latency included. */
export function answeredMs(entry: JournalEntry): number {
  return arrivedByMs(entry) + (entry.realAt === undefined ? entry.durationMs : 0) + (entry.delayMs ?? 0);
}

/** The answer's `Retry-After` in seconds: the entry's field, or the recorded header when details were on. */
export function retryAfterOf(entry: JournalEntry): number | undefined {
  if (entry.retryAfter !== undefined) return entry.retryAfter;
  const header = entry.details?.response.headers['Retry-After'];
  if (header === undefined || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

/**
 * Whether a request was truly in flight when an earlier answer was given (`answered`, from
 * `answeredMs`): the client could not have read that answer before sending it. Only a request
 * that reached the mock before the answer left it was. The ban rule forgives the first refusals of
 * a wait by count (it cannot see when a request was sent); the audit judges by the journal's times,
 * so a client that retries at once is flagged even while its refusals are not yet counted.
 */
export function inFlight(entry: JournalEntry, answered: number): boolean {
  // +1: instants are whole milliseconds (cut down), so within the same millisecond proves nothing.
  return arrivedByMs(entry) + 1 <= answered;
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
export function keyText(key: string | undefined): string {
  return key === undefined ? 'no valid key' : `key ${key}`;
}
