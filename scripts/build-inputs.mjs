// What dist/ is built from, as one digest: `npm test` builds only when it changed since the last
// build (`npm ci` has just built it through `prepare`, and a second build took 10 s of every CI run).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const FOLDERS = ['src', 'scripts', 'scenarios'];
const FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
/** Where the build records the digest of what it was built from. */
export const STAMP = 'dist/.build-inputs';

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** The digest of every file the build reads from this checkout (names and contents). */
export function buildInputs() {
  const hash = createHash('sha256');
  for (const file of [...FOLDERS.flatMap((dir) => [...filesUnder(dir)]), ...FILES]) {
    hash.update(`${file}\0`);
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update('(missing)');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether dist/ was built from exactly these inputs. */
export function builtFromThese() {
  try {
    return readFileSync(STAMP, 'utf8') === buildInputs();
  } catch {
    return false;
  }
}
