// Every scenario file and fixtures file a person names is read here. Only a plain file is read
// (a FIFO named by mistake, or renamed over a watched file, used to hang the server with no
// word), and only up to a size checked before any byte is read (a 60 MB file held answers for
// 14.6 s and took 2.1 GiB). Under --watch the files are read ahead asynchronously, so a slow
// disk does not hold the server either.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { UnreadableFile } from '../core/input/fixtures.js';

/** The largest scenario file read: a scenario is a few dozen lines. */
export const MAX_SCENARIO_FILE_BYTES = 1024 * 1024;
/** The largest fixtures file read (a `db.json` of about 80,000 animals). */
export const MAX_FIXTURES_FILE_BYTES = 16 * 1024 * 1024;

// O_NONBLOCK: opening a FIFO for reading must not wait for a writer (it does not exist on Windows,
// where no FIFO can be opened so).
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB`;
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Throws `UnreadableFile` for anything but a regular file within `maxBytes`. */
function check(stat: Stats, maxBytes: number): void {
  if (stat.isDirectory()) throw new UnreadableFile('it is a directory');
  if (!stat.isFile()) throw new UnreadableFile(`it is ${kindOf(stat)}; petstore-mock reads only regular files`);
  if (stat.size > maxBytes) throw new UnreadableFile(`it is ${mib(stat.size)}, more than the ${mib(maxBytes)} petstore-mock reads from such a file`);
}

/** Texts read ahead by `prefetch`, used by the synchronous reads of one reload. */
let prefetched: ReadonlyMap<string, string | Error> | undefined;

/** Reads a person's file as UTF-8: a regular file of at most `maxBytes`; throws (`UnreadableFile` or the system's error) otherwise. */
export function readUserFile(file: string, maxBytes: number): string {
  const ahead = prefetched?.get(resolve(file));
  if (ahead !== undefined) {
    if (ahead instanceof Error) throw ahead;
    if (Buffer.byteLength(ahead) > maxBytes) throw new UnreadableFile(`it is more than the ${mib(maxBytes)} petstore-mock reads from such a file`);
    return ahead;
  }
  const fd = openSync(file, FLAGS);
  try {
    const stat = fstatSync(fd);
    check(stat, maxBytes);
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
}

async function readAhead(file: string, maxBytes: number): Promise<string | Error> {
  let handle;
  try {
    // Loaded on the first file read, not by every start.
    handle = await process.getBuiltinModule('node:fs/promises').open(file, FLAGS);
    const stat = await handle.stat();
    check(stat, maxBytes);
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const { bytesRead } = await handle.read(buffer, read, stat.size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.toString('utf8', 0, read);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    await handle?.close();
  }
}

/** Reads files without blocking, for a reload that then reads them from memory (`withPrefetched`). */
export async function prefetch(files: readonly string[]): Promise<Map<string, string | Error>> {
  const texts = await Promise.all(files.map((file) => readAhead(file, MAX_FIXTURES_FILE_BYTES)));
  return new Map(files.map((file, i) => [resolve(file), texts[i] as string | Error]));
}

/** Runs `work` with `readUserFile` answering from `texts` for the files they hold. */
export function withPrefetched<T>(texts: ReadonlyMap<string, string | Error>, work: () => T): T {
  prefetched = texts;
  try {
    return work();
  } finally {
    prefetched = undefined;
  }
}
