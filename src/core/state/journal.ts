import type { JournalDetails } from './journal-details.js';

/** One received request and what the mock answered, as `GET /__admin/requests` lists it. */
export interface JournalEntry {
  seq: number;
  /** The session clock's time of the request (ISO-8601 UTC). */
  at: string;
  session: string;
  method: string;
  path: string;
  query: string;
  status: number;
  /** The error code, when the answer was an error. */
  code?: string;
  /** Why the mock answered so, in words. */
  reason: string;
  /** The key, redacted, when one was sent. */
  key?: string;
  /** Wall time the core spent, in milliseconds. */
  durationMs: number;
  /** Scenario latency added before the answer, in milliseconds. */
  delayMs?: number;
  /** The connection fault a scenario acted out instead of answering. */
  fault?: 'reset' | 'empty' | 'truncate';
  /** Headers and bodies, when the session records them and the listing asks for them. */
  details?: JournalDetails;
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

/** The journal's default bound, per session. */
export const DEFAULT_JOURNAL_SIZE = 1000;

/** A bounded ring of the latest journal entries: memory stays flat however long the mock runs. */
export class Journal {
  private entries: JournalEntry[] = [];
  private start = 0;
  private seq = 0;
  /** Whether entries keep headers and bodies; off by default so the hot path records nothing more. */
  details = false;

  constructor(readonly capacity = DEFAULT_JOURNAL_SIZE) {}

  nextSeq(): number {
    return ++this.seq;
  }

  add(entry: JournalEntry): void {
    if (this.capacity <= 0) return;
    if (this.entries.length < this.capacity) this.entries.push(entry);
    else {
      this.entries[this.start] = entry;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  /** Entries oldest first; without `details`, as the default listing shows them (no headers or bodies). */
  list(details = false): JournalEntry[] {
    const all = [...this.entries.slice(this.start), ...this.entries.slice(0, this.start)];
    return details ? all : all.map(withoutDetails);
  }

  /** How many requests the session answered since its last reset, also those the ring has let go. */
  get total(): number {
    return this.seq;
  }

  get size(): number {
    return this.entries.length;
  }

  clear(): void {
    this.entries = [];
    this.start = 0;
    this.seq = 0;
  }
}

function withoutDetails(entry: JournalEntry): JournalEntry {
  if (entry.details === undefined) return entry;
  const { details: _details, ...rest } = entry;
  return rest;
}
