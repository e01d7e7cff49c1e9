// Snapshot files: `--import FILE` / `startMock({ import })` and `--export-on-exit FILE`. A file is
// written whole or not at all (a temporary file beside it, renamed), so a stop in the middle of a
// write never leaves a truncated snapshot where the last good one was. The file holds the keys in
// full: the temporary file is created new (never through a link someone planted at its name) with
// the target's mode, or 0600.
import { closeSync, constants, fchmodSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { readFailure } from '../core/input/fixtures.js';
import { MockError } from '../core/errors.js';
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

/** The mode a new snapshot file gets: it holds the keys in full, so only its owner reads it. */
const NEW_FILE_MODE = 0o600;

/** The permission bits of the file at `target` (a link is followed: its file is what gets replaced), or 0600 when there is none. */
function modeFor(target: string): number {
  try {
    return statSync(target).mode & 0o7777;
  } catch {
    return NEW_FILE_MODE;
  }
}

/** `.NAME.<16 random hex digits>.tmp` beside the target: nobody can plant anything at it in advance. */
function randomTemporaryName(target: string): string {
  // node:crypto is loaded here, on the first export, rather than by every start (4 ms of one).
  const { randomBytes } = process.getBuiltinModule('node:crypto');
  return join(dirname(target), `.${basename(target)}.${randomBytes(8).toString('hex')}.tmp`);
}

/**
 * Writes `text` to `file` atomically: into a temporary file in the same folder, created exclusively
 * under an unpredictable name (a link planted there is never followed: the open fails instead),
 * with the target's mode (0600 for a new file), flushed to disk, then renamed over the target.
 */
export function writeFileAtomically(file: string, text: string, temporaryName: (target: string) => string = randomTemporaryName): void {
  const target = resolve(file);
  const mode = modeFor(target);
  const temporary = temporaryName(target);
  // O_EXCL with O_CREAT refuses any existing name, a symbolic link included; O_NOFOLLOW says so twice.
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode);
  try {
    try {
      // The umask may have narrowed the mode given to open; the target's is what it keeps.
      fchmodSync(fd, mode);
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
