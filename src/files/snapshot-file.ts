// Snapshot files: `--import FILE` / `startMock({ import })` and `--export-on-exit FILE`. A file is
// written whole or not at all (atomic-file.ts), so a stop in the middle of a write never leaves a
// truncated snapshot where the last good one was; it holds the keys in full, so a new one is 0600.
import { MockError, UserError } from '../core/errors.js';
import { readFailure } from '../core/input/fixtures.js';
import { MAX_SNAPSHOT_BYTES } from '../core/state/snapshot.js';
import { readUserFile } from './read-file.js';
import { displayPath } from './display-path.js';

/** The document of a snapshot file; a file that cannot be read or is not JSON is a `UserError` naming it. */
export function readSnapshotFile(file: string): unknown {
  let text: string;
  try {
    text = readUserFile(file, MAX_SNAPSHOT_BYTES);
  } catch (error) {
    throw new UserError(`cannot read the snapshot file ${displayPath(file)} (${readFailure(error)}); check the path given to --import.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UserError(`the snapshot file ${displayPath(file)} is not JSON (${(error as Error).message}); give a file GET /__admin/snapshot wrote.`);
  }
}

/** A restore's refusal, as a start-up mistake that names the file or the option it came from. */
export function importFailure(error: unknown, source: string): unknown {
  if (error instanceof MockError) return new UserError(`cannot import ${source}: ${error.message}`);
  if (error instanceof UserError) return new UserError(`cannot import ${source}: ${error.reason}`);
  return error;
}
