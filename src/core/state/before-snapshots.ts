// Snapshots of a session as it was just before each of its latest requests, so that a bug report
// can restore the state before the failing request and send it again (the step or chaos draw that
// failed then fails again). Kept only while the session records details (an opt-in debugging
// mode: each request then costs a snapshot), for its latest BEFORE_SNAPSHOTS requests; in memory.
import { MockError } from '../errors.js';
import type { SessionState } from './session-state.js';
import { takeSnapshot, type SnapshotDocument } from './snapshot.js';

/** How many requests back a session keeps its "before" snapshots. */
export const BEFORE_SNAPSHOTS = 32;

// By session object: a reset or restore keeps the object, so the numbers restart and the old ones go.
const kept = new WeakMap<SessionState, Map<number, SnapshotDocument>>();

/** Keeps the session's state as it is before its next request (number `journal.total + 1`). */
export function keepBefore(state: SessionState): void {
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
export function snapshotBefore(state: SessionState, seq: number): SnapshotDocument {
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
export function forgetBefore(state: SessionState): void {
  kept.delete(state);
}
