import { SharedBudget, ownString, stringBytes } from './budget.js';
import { detailsBytes, type JournalDetails } from './journal-details.js';
import type { BanCount } from './limiter.js';
import type { ConnectionFault } from '../types.js';

/** One received request and what the mock answered, as `GET /__admin/requests` lists it. */
export interface JournalEntry {
  seq: number;
  /** The session clock's time of the request (ISO-8601 UTC). */
  at: string;
  /** The real time of the request, when the session's clock was frozen, set or advanced. */
  realAt?: string;
  /**
   * The real time the request's head reached the mock, in epoch milliseconds with microseconds:
   * what the client audit judges "in flight" by. Real time, not the session clock: under a set or
   * frozen clock it differs from `at`, whose instant is read when the mock decides.
   */
  arrivalMs?: number;
  /**
   * The number the mock gave the connection the request came on (one count per process; absent
   * for requests given to the Fetch handler): the audit tells a retry on the connection that was
   * answered a 429 from a parallel caller's request on another.
   */
  connection?: number;
  /**
   * How many requests the connection had carried when this one came, this one included, whatever
   * session or key they were for: 1 marks a new connection, the one thing that may excuse a request
   * sent into a wait as a parallel caller's. Counted where the socket is, so it needs no other entry.
   */
  connectionUse?: number;
  /**
   * On a shared state: the instance (`HOST:PID`) that answered, since each numbers its own
   * connections; with `connection`, what names a connection across the deployment.
   */
  instance?: string;
  /** Milliseconds from the arrival to the core taking the request up (a body still coming, other requests of the same moment first). */
  queuedMs?: number;
  session: string;
  method: string;
  path: string;
  query: string;
  /** True when the path or the query was longer than the journal keeps and is cut short. */
  truncated?: boolean;
  status: number;
  /** The error code, when the answer was an error. */
  code?: string;
  /** Why the mock answered so, in words. */
  reason: string;
  /** The key, redacted, when one was sent. */
  key?: string;
  /**
   * With `key`: a short fingerprint of the whole key (the first 8 hex digits of its SHA-256), so
   * keys that redact alike are told apart; the audit groups by it and filters accept the whole key.
   */
  keyId?: string;
  /** Wall time the core spent, in milliseconds. */
  durationMs: number;
  /** Scenario latency added before the answer, in milliseconds. */
  delayMs?: number;
  /** The connection fault a scenario acted out instead of answering. */
  fault?: ConnectionFault;
  /** The whole seconds of the `Retry-After` header the answer carried (429, 503), whichever form it was written in. */
  retryAfter?: number;
  /** `http-date` when that `Retry-After` was an HTTP-date rather than seconds. */
  retryAfterForm?: 'http-date';
  /** The `X-RateLimit-Reset` a 429 announced (Unix seconds): a client may wait until then instead of `Retry-After`. */
  rateReset?: number;
  /** On a 429 refusal of a valid key: whether it counted toward a ban, and why not. */
  ban?: BanCount;
  /**
   * On answers 400, 401, 404 and 410, and on every POST: a short digest of the request's body and presented key
   * (redacted before hashing), so the client audit can tell a repeated request from a changed one.
   */
  digest?: string;
  /** Headers and bodies, when the session records them and the listing asks for them. */
  details?: JournalDetails;
}

/**
 * Adds what a refusal tells to its entry: the `Retry-After` it announced and, for a valid key's
 * 429, whether it counted toward a ban, in the fields and in the reason's words.
 */
export function noteRefusal(entry: JournalEntry, headers: Record<string, string>, ban: BanCount | undefined): void {
  const retry = headers['Retry-After'];
  if (retry !== undefined) {
    if (/^\d+$/.test(retry)) entry.retryAfter = Number(retry);
    else {
      // An HTTP-date: the wait it names is its distance from the answer's Date (both on the session clock).
      const until = Date.parse(retry);
      const date = Date.parse(headers.Date ?? '');
      if (Number.isFinite(until) && Number.isFinite(date)) {
        entry.retryAfter = Math.max(0, Math.round((until - date) / 1000));
        entry.retryAfterForm = 'http-date';
      }
    }
  }
  if (entry.status !== 429) return;
  const reset = headers['X-RateLimit-Reset'];
  if (reset !== undefined) entry.rateReset = Number(reset);
  if (ban === undefined) return;
  entry.ban = ban;
  entry.reason = ban.counted
    ? `${entry.reason} Counted toward a ban: ${ban.count} of ${ban.after + 1}.`
    : `${entry.reason} Not counted toward a ban: ${ban.why ?? 'not sent while told to wait'}.`;
}

let lastMs = NaN;
let lastIso = '';

/**
 * `new Date(ms).toISOString()`, remembered for the last instant: under load many answers share a
 * millisecond, and formatting a date was the single largest cost of journalling one.
 */
export function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/** The journal's default bound in entries, per session. */
export const DEFAULT_JOURNAL_SIZE = 1000;
/** The journal's default bound in bytes, per session. */
export const DEFAULT_JOURNAL_BYTES = 1024 * 1024;
/** The longest path, and the longest query, an entry keeps; longer ones are cut and marked `truncated`. */
export const MAX_JOURNAL_TEXT = 256;
/** The heap of an entry beyond its strings: the object, its numbers, the shared time string. */
const ENTRY_OVERHEAD = 200;

/** The first `MAX_JOURNAL_TEXT` characters of a text, not a view keeping the whole request target alive. */
function detachedPrefix(text: string): string {
  return text.length <= MAX_JOURNAL_TEXT ? text : ownString(text.slice(0, MAX_JOURNAL_TEXT));
}

/**
 * Cuts an entry's path and query to what the journal keeps, marking it `truncated`, and returns
 * what it counts against the journal's byte bound: the same in every home of state.
 */
export function boundEntry(entry: JournalEntry): number {
  if (entry.path.length > MAX_JOURNAL_TEXT || entry.query.length > MAX_JOURNAL_TEXT) {
    entry.path = detachedPrefix(entry.path);
    entry.query = detachedPrefix(entry.query);
    entry.truncated = true;
  }
  return entryBytes(entry);
}

/** The heap of a `ban` field beyond its `why`: the object and its three values. */
const BAN_OVERHEAD = 80;

/** What an optional text counts: 0 when absent. */
const optionalBytes = (text: string | undefined): number => (text === undefined ? 0 : stringBytes(text.length));

/**
 * What an entry counts against the journal's bounds: every field it holds, in every home and
 * restored or not. Each text is counted as `stringBytes` counts one (16 bytes and 2 per
 * character); the texts an entry always holds (its time, method, path, query, reason) as such, the
 * optional ones when present. Written out field by field: it runs for every request.
 */
function entryBytes(entry: JournalEntry): number {
  let bytes =
    ENTRY_OVERHEAD +
    stringBytes(entry.at.length) +
    stringBytes(entry.method.length) +
    stringBytes(entry.path.length) +
    stringBytes(entry.query.length) +
    stringBytes(entry.reason.length) +
    optionalBytes(entry.realAt) +
    optionalBytes(entry.code) +
    optionalBytes(entry.key) +
    optionalBytes(entry.keyId) +
    optionalBytes(entry.fault) +
    optionalBytes(entry.digest) +
    optionalBytes(entry.instance);
  if (entry.ban !== undefined) bytes += BAN_OVERHEAD + (entry.ban.why === undefined ? 0 : stringBytes(entry.ban.why.length));
  return entry.details === undefined ? bytes : bytes + detailsBytes(entry.details);
}

/**
 * A bounded queue of the latest journal entries, by count and by bytes, within a budget shared
 * with the other sessions' journals: memory stays bounded whatever clients send and however long
 * the mock runs. Paths and queries past `MAX_JOURNAL_TEXT` are kept cut short.
 */
export class Journal {
  /** Entries from `head` on; slots before it are dropped ones, emptied so they hold nothing. */
  private entries: (JournalEntry | undefined)[] = [];
  private sizes: number[] = [];
  private head = 0;
  private seq = 0;
  private bytes = 0;
  /** Whether entries keep headers and bodies; off by default so the hot path records nothing more. */
  details = false;

  constructor(
    readonly capacity = DEFAULT_JOURNAL_SIZE,
    readonly maxBytes = DEFAULT_JOURNAL_BYTES,
    private readonly shared = new SharedBudget(Infinity),
  ) {}

  nextSeq(): number {
    return ++this.seq;
  }

  add(entry: JournalEntry): void {
    if (this.capacity <= 0) return;
    const size = boundEntry(entry);
    this.entries.push(entry);
    this.sizes.push(size);
    this.bytes += size;
    while (this.size > this.capacity || this.bytes > this.maxBytes) this.dropOldest();
    this.shared.take(size);
  }

  /** Drops the oldest entry; false when there is none. */
  dropOldest(): boolean {
    if (this.head >= this.entries.length) return false;
    // sizes is pushed and compacted in step with entries, and head < entries.length: never undefined.
    const size = this.sizes[this.head]!;
    this.bytes -= size;
    this.shared.give(size);
    this.entries[this.head] = undefined;
    this.head++;
    // Compact once half the slots are empty, so the arrays do not grow with dropped entries.
    if (this.head >= 32 && this.head * 2 >= this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
    return true;
  }

  /** Entries oldest first; without `details`, as the default listing shows them (no headers or bodies). */
  list(details = false): JournalEntry[] {
    const all = this.entries.slice(this.head) as JournalEntry[];
    return details ? all : all.map(withoutDetails);
  }

  /** How many requests the session answered since its last reset, also those the journal has let go. */
  get total(): number {
    return this.seq;
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  /** Estimated heap the entries hold, as counted against the bounds. */
  get byteSize(): number {
    return this.bytes;
  }

  /**
   * Empties the journal and fills it with a snapshot's entries, oldest first, as `restoredEntries`
   * bounded them for this journal; `total` is the number the next request follows.
   */
  load(entries: readonly { entry: JournalEntry; bytes: number }[], total: number): void {
    this.clear();
    for (const { entry, bytes } of entries) {
      this.entries.push(entry);
      this.sizes.push(bytes);
      this.bytes += bytes;
    }
    this.shared.take(this.bytes);
    this.seq = total;
  }

  clear(): void {
    this.shared.give(this.bytes);
    this.entries = [];
    this.sizes = [];
    this.head = 0;
    this.seq = 0;
    this.bytes = 0;
  }
}

function withoutDetails(entry: JournalEntry): JournalEntry {
  if (entry.details === undefined) return entry;
  const { details: _details, ...rest } = entry;
  return rest;
}
