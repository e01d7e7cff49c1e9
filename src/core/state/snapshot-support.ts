// Snapshots of in-memory sessions, taken and restored, as one capability a home is given. The Node
// package gives it with its schema check (src/files/object-checks.ts); the browser build, which
// takes no snapshots, is given none and so carries none of their code.
import { forgetBefore, keepBefore, snapshotBefore } from './before-snapshots.js';
import { takeSnapshot } from './snapshot.js';
import { prepareRestore, readSnapshot, type SnapshotSchemaCheck } from './snapshot-restore.js';

/**
 * What snapshots take: the schema's check (`check`), the reading of a document and its swap into a
 * session, the taking of one, and the states kept before each request of a session that records details.
 */
export function snapshotSupport(check: SnapshotSchemaCheck) {
  return { check, read: readSnapshot, prepareRestore, take: takeSnapshot, keepBefore, forgetBefore, before: snapshotBefore };
}

export type SnapshotSupport = ReturnType<typeof snapshotSupport>;
