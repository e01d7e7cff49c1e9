// Journal entries on their way to Redis, as the scripts take them: runs of entries of one session,
// epoch and bounds, with the entries' texts as arguments of their own; and the texts read back.
import { DEFAULT_JOURNAL_BYTES, type JournalEntry } from '../core/state/journal.js';

/** A journal entry on its way to Redis, with what bounds it there. */
export interface RecordedEntry {
  sid: string;
  /** When its answer was decided (Redis ms): the script stops waiting for the entry about 2 s after it. */
  real: number;
  ep: string;
  /** As the journal list keeps it, "BYTES JSON" (so the oldest can go with its size), built here rather than in Lua. */
  text: string;
  bytes: number;
  cap: number;
}

/** The journal list's texts as entries, in the order of their requests: they land in the order their writes arrive. */
export function journalEntries(lines: readonly string[]): JournalEntry[] {
  return lines.map((line) => JSON.parse(line.slice(line.indexOf(' ') + 1)) as JournalEntry).sort((a, b) => a.seq - b.seq);
}

/** A journal run as the scripts read it: entries in a row of one session, epoch and bounds. */
export interface Run {
  sid: string;
  ep: string;
  cap: number;
  max: number;
  at: number[];
  b: number[];
}

/** The entries' bounds as runs (numbers in arrays: Lua decodes them several times faster than an object per entry). */
export function runsIn(entries: RecordedEntry[]): Run[] {
  const runs: Run[] = [];
  let run: Run | undefined;
  for (const e of entries) {
    if (!run || run.sid !== e.sid || run.ep !== e.ep || run.cap !== e.cap) {
      run = { sid: e.sid, ep: e.ep, cap: e.cap, max: DEFAULT_JOURNAL_BYTES, at: [], b: [] };
      runs.push(run);
    }
    run.at.push(e.real);
    run.b.push(e.bytes);
  }
  return runs;
}
