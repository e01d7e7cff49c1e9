// Snapshots of in-memory sessions, taken and restored, as one capability a home is given. The Node
// package gives it with its schema check (src/files/object-checks.ts); the browser build, which
// takes no snapshots, is given none and so carries none of their code.
//
// With it, the states before each of a session's latest requests, so that a bug report can restore
// the state before the failing request and send it again (the step or chaos draw that failed then
// fails again). Kept only while the session records details (an opt-in debugging mode: each
// request then costs a snapshot), for its latest BEFORE_SNAPSHOTS requests.
import { MockError } from '../errors.js';
import type { SessionState } from './session-state.js';
import { takeSnapshot, type SnapshotDocument } from './snapshot.js';
import { prepareRestore, readSnapshot, type SnapshotSchemaCheck } from './snapshot-restore.js';

/**
 * What snapshots take: the schema's check (`check`), the reading of a document and its swap into a
 * session, the taking of one, and the states kept before each request of a session that records details.
 */
export function snapshotSupport(check: SnapshotSchemaCheck) {
  return { check, read: readSnapshot, prepareRestore, take: takeSnapshot, keepBefore, forgetBefore, before: snapshotBefore };
}

export type SnapshotSupport = ReturnType<typeof snapshotSupport>;

/** How many requests back a session keeps its "before" snapshots. */
const BEFORE_SNAPSHOTS = 32;

// By session object: a reset or restore keeps the object, so the numbers restart and the old ones go.
const kept = new WeakMap<SessionState, Map<number, SnapshotDocument>>();

/** Keeps the session's state as it is before its next request (number `journal.total + 1`). */
function keepBefore(state: SessionState): void {
  const seq = state.journal.total + 1;
  let ring = kept.get(state);
  if (ring === undefined) {
    ring = new Map();
    kept.set(state, ring);
  }
  // Numbers that went back (a reset, a restore) start the ring again.
  for (const old of ring.keys()) if (old >= seq) ring.clear();
  // The journal is left out: at reading, the entries before `seq` are taken from the journal itself.
  const doc = takeSnapshot(state);
  ring.set(seq, { ...doc, journal: { ...doc.journal, entries: [] } });
  if (ring.size > BEFORE_SNAPSHOTS) ring.delete(ring.keys().next().value as number);
}

/** The session as it was just before request `seq`, its journal the entries before it; a clear 400 when not kept. */
function snapshotBefore(state: SessionState, seq: number): SnapshotDocument {
  const doc = kept.get(state)?.get(seq);
  if (doc === undefined) {
    const numbers = [...(kept.get(state)?.keys() ?? [])];
    const range = numbers.length === 0 ? 'none is kept for it yet' : `it keeps requests ${numbers[0]} to ${numbers[numbers.length - 1]}`;
    throw new MockError(
      'admin_invalid_request',
      `no snapshot from before request ${seq} of session ${JSON.stringify(state.id)} (${range}): the state before each request is kept while the session records details (PUT /__admin/journal {"details": true}, before the requests), for its latest ${BEFORE_SNAPSHOTS} requests.`,
    );
  }
  const entries = state.journal.list(true).filter((e) => e.seq < seq);
  return { ...doc, journal: { ...doc.journal, total: seq - 1, entries } };
}

/** Drops what a session kept: a restore gives it another history. */
function forgetBefore(state: SessionState): void {
  kept.delete(state);
}
