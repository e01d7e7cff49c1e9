// A file written whole or not at all: into a temporary file beside it, renamed over it, so a stop
// in the middle of a write never leaves half a file where the last good one was. Snapshots hold
// the keys in full, so the temporary file is created new (never through a link someone planted at
// its name) with the target's mode, or 0600. Node built-ins only: the command's code-cache loader
// (src/cli/code-cache.ts) writes its entries with it too, before the rest of the command is loaded.
import { closeSync, constants, fchmodSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** The mode a new file gets: a snapshot holds the keys in full, so only its owner reads it. */
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
 * Writes `data` (text as UTF-8) to `file` atomically: into a temporary file in the same folder, created exclusively
 * under an unpredictable name (a link planted there is never followed: the open fails instead),
 * with the target's mode (0600 for a new file), flushed to disk, then renamed over the target.
 */
export function writeFileAtomically(file: string, data: string | Uint8Array, temporaryName: (target: string) => string = randomTemporaryName): void {
  const target = resolve(file);
  const mode = modeFor(target);
  const temporary = temporaryName(target);
  // O_EXCL with O_CREAT refuses any existing name, a symbolic link included; O_NOFOLLOW says so twice.
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode);
  try {
    try {
      // The umask may have narrowed the mode given to open; the target's is what it keeps.
      fchmodSync(fd, mode);
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
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
