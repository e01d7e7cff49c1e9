// The command's start with V8's code cache. Compiling the command's bundle was the largest single
// cost of a start that Node does not pay for a bare server (docs/performance.md, "The code cache"):
// Node 20 has no compile cache of its own (`module.enableCompileCache` came with Node 22), so the
// command keeps one: V8's compiled code of the bundle, written once, read by every later start.
//
// V8 accepts cached code for any source of the same length, so a cache entry carries the source it
// was made from and is used only when that is the file's source byte for byte (a rebuilt or
// patched bundle of the same length must not run stale code). V8 itself rejects an entry of
// another V8 version or other flags; a rejected or unreadable entry is written again.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { writeFileAtomically } from '../files/atomic-file.js';

/** What became of the cache on this load (tests read it; the command does not print it). */
export type CodeCacheOutcome = 'used' | 'written' | 'off';

/** Where the cache may be kept, first choice first: beside the package, then the user's own cache. */
export function codeCacheDirs(packageRoot: string, env: NodeJS.ProcessEnv = process.env): string[] {
  // Node's own switch for its compile cache, honoured for ours.
  if (env.NODE_DISABLE_COMPILE_CACHE) return [];
  const userCache = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return [join(packageRoot, '.compile-cache'), join(userCache, 'petstore-mock')];
}

/** A cache entry: the source's length (4 bytes), the source, then V8's data. */
function entryOf(source: Buffer, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32LE(source.length);
  return Buffer.concat([head, source, data]);
}

/** V8's data from an entry made from exactly `source`, else undefined. */
function dataFor(entry: Buffer, source: Buffer): Buffer | undefined {
  if (entry.length < 4 || entry.readUInt32LE(0) !== source.length || entry.length <= 4 + source.length) return undefined;
  return source.equals(entry.subarray(4, 4 + source.length)) ? entry.subarray(4 + source.length) : undefined;
}

function readEntry(dirs: string[], name: string): Buffer | undefined {
  for (const dir of dirs) {
    try {
      return readFileSync(join(dir, name));
    } catch {
      // Not there, or not readable: the next place, or no cache.
    }
  }
  return undefined;
}

function forget(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Gone already, or not ours to remove: it stays, harmless.
  }
}

/**
 * Removes the entries of earlier builds of the same file for the same Node: a checkout rebuilt all
 * day would otherwise keep one entry per length its bundle ever had. Other Node versions' entries
 * stay, for a machine that switches between them.
 */
function forgetOlder(dir: string, name: string): void {
  const sameNode = name.slice(0, name.lastIndexOf('-') + 1);
  try {
    for (const other of readdirSync(dir)) if (other !== name && other.startsWith(sameNode) && other.endsWith('.v8cache')) forget(join(dir, other));
  } catch {
    // Not listable: the older entries stay, harmless.
  }
}

/** Writes the entry to the first place that takes it; a cache that cannot be written is no error. */
function writeEntry(dirs: string[], name: string, entry: () => Buffer): boolean {
  let made: Buffer | undefined;
  for (const dir of dirs) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // Made only once a place takes it: V8's serialisation is the write's main cost. Written
      // atomically, so starts running side by side never read half an entry.
      writeFileAtomically(join(dir, name), (made ??= entry()));
      forgetOlder(dir, name);
      return true;
    } catch {
      // Read-only (a global install, a container's image), or a full disk: the next place.
    }
  }
  return false;
}

/**
 * Runs the CommonJS file `file` and returns its exports, compiled from the code cache in `dirs`
 * when an entry for its source is there. A missing, stale or rejected entry is written after
 * `writeAfterMs`, off the start's path, once the start has compiled what it runs.
 */
export function loadWithCodeCache(file: string, dirs: string[], writeAfterMs = 200, onOutcome?: (outcome: CodeCacheOutcome) => void): unknown {
  const source = readFileSync(file);
  const name = `${basename(file)}-${process.version}-${process.arch}-${source.length}.v8cache`;
  const entry = dirs.length > 0 ? readEntry(dirs, name) : undefined;
  const cachedData = entry && dataFor(entry, source);
  // The wrapper Node gives a CommonJS module; the bundle uses require, module and exports only.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source.toString('utf8')}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  if (dirs.length === 0) onOutcome?.('off');
  else if (cachedData !== undefined && !script.cachedDataRejected) onOutcome?.('used');
  else {
    setTimeout(() => {
      // Not inside `onOutcome?.(…)`: an absent callback would skip the write with its argument.
      const written = writeEntry(dirs, name, () => entryOf(source, script.createCachedData()));
      onOutcome?.(written ? 'written' : 'off');
    }, writeAfterMs).unref();
  }
  return module.exports;
}
