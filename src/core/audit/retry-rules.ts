// The audit rules about how a client retries, beyond waiting: unsafe-create-retry (a create sent
// again when its outcome was unknown), no-jitter (parallel callers retrying in lockstep) and
// retry-after-misread (a wait that matches Retry-After read in milliseconds, or an HTTP-date
// ignored). One pass over the entries, oldest first, with a little state per key.
import type { JournalEntry } from '../state/journal.js';
import {
  PARALLEL_GRACE_MS,
  answeredMs,
  clockMs,
  connectionName,
  finding,
  inFlight,
  keyText,
  plural,
  secondsText,
  seqList,
  waitEndOf,
  type AuditFinding,
  type KeyName,
} from './findings.js';
import { EARLY_TOLERANCE_MS, WAIT_STATUSES } from './rate-rules.js';

/**
 * Callers refused together, counted as "several" from this many on: callers that each add a random
 * share of a second still all land within the window, two of them one time in five, three one
 * time in thirty-six, four one time in 270.
 */
export const JITTER_CALLERS = 4;
/**
 * Retries of several callers whose arrivals all lie within this many milliseconds came at the same
 * instant. Not less: on a busy machine, callers woken by one timer reach the mock tens of
 * milliseconds apart (up to 50 ms seen with a test suite running beside them).
 */
export const LOCKSTEP_MS = 100;
/** Below this many seconds of Retry-After, a wait in milliseconds cannot be told from an immediate retry. */
export const MISREAD_MIN_SECONDS = 10;

/** When a request reached the mock, in real time when recorded, else on the session clock. */
function arrivalOf(entry: JournalEntry): number {
  return entry.arrivalMs ?? clockMs(entry);
}

/** Whether a request was a parallel caller's when the answer at `answered` left: in flight, or the first of a new connection soon after. */
function parallel(entry: JournalEntry, answered: number): boolean {
  if (inFlight(entry, answered)) return true;
  return entry.connectionUse === 1 && entry.arrivalMs !== undefined && entry.arrivalMs < answered + PARALLEL_GRACE_MS;
}

/** Why a create's answer left its outcome unknown to the client, or undefined when it was told. */
function unknownOutcome(entry: JournalEntry): string | undefined {
  if (entry.fault === 'reset') return 'had its connection reset';
  if (entry.fault === 'empty') return 'had its connection closed with no answer';
  if (entry.fault === 'truncate') return 'got a truncated answer';
  if (entry.status >= 500) return `was answered ${entry.status}${entry.code ? ` ${entry.code}` : ''}`;
  return undefined;
}

interface Create {
  first: JournalEntry;
  why: string;
  later: number[];
}

interface Refusals {
  entries: JournalEntry[];
  answered: number;
}

interface KeyState {
  key: KeyName;
  /** Creates whose outcome the client could not know, by path and digest of the body and key. */
  creates: Map<string, Create>;
  /** The last create of each body, for a resend that came while it was still unanswered (a timeout). */
  lastCreate: Map<string, JournalEntry>;
  /** 429s of parallel callers refused together, still gathering. */
  refusals?: Refusals;
  /** Callers refused together, waiting for their retries. */
  awaiting?: { refusals: Refusals; retries: JournalEntry[] };
  /** The last answer that announced a wait, and whether the request after it was judged. */
  lastWait?: JournalEntry;
  /** The key's last request, and how long the client took to send the one that got `lastWait` after it. */
  previous?: JournalEntry;
  waitPace?: number;
  /** Retry-After read in milliseconds, and an HTTP-date ignored. */
  msReads: Misreads;
  dateIgnored: Misreads;
}

/** The waits and retries of one kind of misread, and the first of them, for the message. */
interface Misreads {
  seqs: number[];
  example?: { wait: JournalEntry; retry: JournalEntry; gapMs: number };
}

function noteMisread(misreads: Misreads, wait: JournalEntry, retry: JournalEntry, gapMs: number): void {
  misreads.seqs.push(wait.seq, retry.seq);
  misreads.example ??= { wait, retry, gapMs };
}

function closeCreate(state: KeyState, id: string, out: AuditFinding[]): void {
  const create = state.creates.get(id);
  state.creates.delete(id);
  if (!create || create.later.length === 0) return;
  const { first, why, later } = create;
  out.push(
    finding(
      'unsafe-create-retry',
      state.key,
      [first.seq, ...later],
      `${first.method} ${first.path} with ${keyText(state.key)} ${why} at #${first.seq}, and the client sent the same create again (${seqList(later)}): it could not know whether the first was done, so it may have created it twice. Do not retry a create automatically after a reset, an empty, truncated or timed-out answer, or a 5xx; check first (GET /v1/pets) whether it exists, or retry only answers that say nothing was done (429, 4xx).`,
    ),
  );
}

function judgeRetries(state: KeyState, out: AuditFinding[]): void {
  const awaiting = state.awaiting;
  state.awaiting = undefined;
  if (!awaiting) return;
  const times = awaiting.retries.map(arrivalOf);
  const spread = Math.max(...times) - Math.min(...times);
  if (spread > LOCKSTEP_MS) return;
  const refused = awaiting.refusals.entries;
  out.push(
    finding(
      'no-jitter',
      state.key,
      [...refused.map((e) => e.seq), ...awaiting.retries.map((e) => e.seq)],
      `${refused.length} callers with ${keyText(state.key)} refused together (${seqList(refused.map((e) => e.seq))}) retried at the same instant (${seqList(awaiting.retries.map((e) => e.seq))}, within ${secondsText(spread)}), so they meet the limit together again. Add random jitter to each caller's wait (a random share of the backoff on top of Retry-After) so their retries spread out.`,
    ),
  );
}

function closeRefusals(state: KeyState): void {
  const refusals = state.refusals;
  state.refusals = undefined;
  if (!refusals) return;
  const callers = new Set(refusals.entries.map((e, i) => connectionName(e) ?? `#${i}`));
  if (refusals.entries.length >= JITTER_CALLERS && callers.size >= JITTER_CALLERS) state.awaiting = { refusals, retries: [] };
}

/** The retry after an answer that announced a wait: does its gap match the header read in the wrong unit or form? */
function judgeRead(state: KeyState, wait: JournalEntry, retry: JournalEntry): void {
  const seconds = wait.retryAfter ?? 0;
  const end = waitEndOf(wait);
  if (end === undefined || clockMs(retry) >= end - EARLY_TOLERANCE_MS) return;
  if (wait.retryAfterForm === 'http-date') return noteMisread(state.dateIgnored, wait, retry, clockMs(retry) - clockMs(wait));
  if (seconds < MISREAD_MIN_SECONDS || retry.arrivalMs === undefined) return;
  const gap = retry.arrivalMs - answeredMs(wait);
  // What the client slept: the gap less the time it takes to send without sleeping (as it did
  // before the refused request), so that a loop that retries at once on a busy machine, whose every
  // gap is tens of milliseconds, is not taken for one that slept Retry-After milliseconds.
  const slept = gap - (state.waitPace ?? 0);
  // Timers fire late on a busy machine: up to twice the misread wait and 100 ms more still matches.
  if (slept >= seconds - 1 && slept <= seconds * 2 + 100) noteMisread(state.msReads, wait, retry, gap);
}

function closeReads(state: KeyState, out: AuditFinding[]): void {
  const key = keyText(state.key);
  const ms = state.msReads.example;
  if (ms) {
    const { wait, retry, gapMs } = ms;
    const times = state.msReads.seqs.length / 2;
    const message = `after the ${wait.status} at #${wait.seq} said Retry-After: ${wait.retryAfter} (seconds), the client with ${key} retried ${secondsText(gapMs)} later (#${retry.seq}): ${wait.retryAfter} milliseconds, the header read in the wrong unit${times > 1 ? `, ${plural(times, 'time')}` : ''}. Retry-After is in seconds (RFC 9110): multiply by 1000 before sleeping.`;
    out.push(finding('retry-after-misread', state.key, [...new Set(state.msReads.seqs)], message));
  }
  const date = state.dateIgnored.example;
  if (date) {
    const { wait, retry, gapMs } = date;
    const message = `the ${wait.status} at #${wait.seq} gave Retry-After as an HTTP-date, ${wait.retryAfter} s ahead, and the client with ${key} retried ${secondsText(gapMs)} later (#${retry.seq}), before that date: it reads only the seconds form. RFC 9110 allows both; parse an HTTP-date too (its distance from the answer's Date header is the wait).`;
    out.push(finding('retry-after-misread', state.key, [...new Set(state.dateIgnored.seqs)], message));
  }
}

function createStep(state: KeyState, entry: JournalEntry, out: AuditFinding[]): void {
  if (entry.method === 'GET' || entry.method === 'HEAD') {
    // A look before sending again is what the rule asks: the creates it followed are settled.
    for (const [id, create] of state.creates) if (create.later.length === 0) state.creates.delete(id);
    return;
  }
  if (entry.method !== 'POST' || entry.digest === undefined) return;
  const id = `${entry.path}\n${entry.digest}`;
  const previous = state.lastCreate.get(id);
  state.lastCreate.set(id, entry);
  const pending = state.creates.get(id);
  const why = unknownOutcome(entry);
  if (pending) pending.later.push(entry.seq);
  else if (
    previous &&
    previous.arrivalMs !== undefined &&
    entry.arrivalMs !== undefined &&
    entry.arrivalMs > previous.arrivalMs &&
    inFlight(entry, answeredMs(previous))
  ) {
    // Sent again while the first was still being answered: the client gave up waiting on it.
    state.creates.set(id, {
      first: previous,
      why: `timed out (its answer took ${secondsText(answeredMs(previous) - previous.arrivalMs)})`,
      later: [entry.seq],
    });
  } else {
    if (why !== undefined) state.creates.set(id, { first: entry, why, later: [] });
    return;
  }
  // A resend whose own outcome the client knew settles the create.
  if (why === undefined) closeCreate(state, id, out);
}

function waitStep(state: KeyState, entry: JournalEntry, out: AuditFinding[]): void {
  const limited = entry.status === 429 && entry.code !== 'key_banned' && entry.retryAfter !== undefined;
  if (limited && state.refusals && parallel(entry, state.refusals.answered)) state.refusals.entries.push(entry);
  else {
    // The first request that is no parallel caller's closes the callers refused together.
    closeRefusals(state);
    const awaiting = state.awaiting;
    if (awaiting && !parallel(entry, awaiting.refusals.answered)) {
      awaiting.retries.push(entry);
      if (awaiting.retries.length === awaiting.refusals.entries.length) judgeRetries(state, out);
    }
    if (limited) state.refusals = { entries: [entry], answered: answeredMs(entry) };
  }

  const wait = state.lastWait;
  if (wait && !parallel(entry, answeredMs(wait))) {
    state.lastWait = undefined;
    judgeRead(state, wait, entry);
  }
  if (WAIT_STATUSES.has(entry.status) && entry.retryAfter !== undefined && entry.code !== 'key_banned') {
    state.lastWait = entry;
    state.waitPace = paceBefore(state.previous, entry);
  }
  state.previous = entry;
}

/**
 * How long a client took to send `entry` after its previous answer, when it sent both back to back
 * on one connection (the request right after it there): its pace without sleeping. 0 otherwise.
 */
function paceBefore(previous: JournalEntry | undefined, entry: JournalEntry): number {
  if (!previous || entry.arrivalMs === undefined || previous.connection !== entry.connection) return 0;
  if (previous.connectionUse === undefined || entry.connectionUse !== previous.connectionUse + 1) return 0;
  return Math.max(0, entry.arrivalMs - answeredMs(previous));
}

/**
 * unsafe-create-retry, no-jitter and retry-after-misread over the entries with a key, oldest
 * first. Keys are told apart by `group` (the whole key's fingerprint) and named by `name`.
 */
export function retryFindings(
  entries: readonly JournalEntry[],
  group: (entry: JournalEntry) => string,
  name: (entry: JournalEntry) => KeyName,
): AuditFinding[] {
  const states = new Map<string, KeyState>();
  const out: AuditFinding[] = [];
  for (const entry of entries) {
    if (entry.key === undefined) continue;
    const id = group(entry);
    let state = states.get(id);
    if (!state) {
      state = { key: name(entry), creates: new Map(), lastCreate: new Map(), msReads: { seqs: [] }, dateIgnored: { seqs: [] } };
      states.set(id, state);
    }
    createStep(state, entry, out);
    waitStep(state, entry, out);
  }
  for (const state of states.values()) {
    for (const id of [...state.creates.keys()]) closeCreate(state, id, out);
    closeRefusals(state);
    if (state.awaiting && state.awaiting.retries.length >= JITTER_CALLERS) judgeRetries(state, out);
    closeReads(state, out);
  }
  return out;
}
