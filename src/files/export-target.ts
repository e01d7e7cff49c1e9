// The file `--export-on-exit` will write is checked when the mock starts: by the time it is
// written the session is all there is, and a folder found missing then loses it for good.
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { displayPath as relativePath } from './display-path.js';

const displayPath = (path: string): string => relativePath(path) || '.';

/** Throws a `UserError` naming `file` when its folder is missing or not writable, or when it is a folder itself. */
export function checkExportTarget(file: string): void {
  const target = resolve(file);
  const folder = dirname(target);
  const refuse = (why: string): never => {
    throw new UserError(`cannot export the snapshot on exit to ${displayPath(file)}: ${why}; check the path given to --export-on-exit.`);
  };
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    return refuse(`the folder ${displayPath(folder)} does not exist`);
  }
  if (!isFolder) refuse(`${displayPath(folder)} is not a folder`);
  try {
    // The temporary file is created in the folder and renamed over the file: both need the folder writable.
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch {
    refuse(`the folder ${displayPath(folder)} is not writable`);
  }
  try {
    if (statSync(target).isDirectory()) refuse('it is a folder');
  } catch (error) {
    if (error instanceof UserError) throw error;
  }
}
