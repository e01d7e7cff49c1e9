// The command's start from V8's code cache (src/cli/code-cache.ts), on small CommonJS files in a
// directory of the test's own; the command's own build runs this way in every end-to-end test.
// Each load is a process of its own, as each start is: within one process V8 compiles a source it
// has seen from its own memory and never reads the cached data it is given.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { codeCacheDirs, type CodeCacheOutcome } from '../../src/cli/code-cache.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const loaderDir = mkdtempSync(join(tmpdir(), 'petstore-code-cache-loader-'));
const loader = join(loaderDir, 'code-cache.cjs');
beforeAll(async () => {
  await build({ entryPoints: ['src/cli/code-cache.ts'], bundle: true, platform: 'node', format: 'cjs', outfile: loader, logLevel: 'warning' });
});
afterAll(() => rmSync(loaderDir, { recursive: true, force: true }));

const LOAD = `
const [loader, file, dirs] = process.argv.slice(1);
let exports;
exports = require(loader).loadWithCodeCache(file, JSON.parse(dirs), 0, (outcome) => queueMicrotask(() => console.log(JSON.stringify({ exports, outcome }))));
`;

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-code-cache-'));
  made.push(dir);
  return dir;
}

/** Loads `file` in a new process, and says what became of the cache (a write happens after the load, on a timer). */
async function load(file: string, dirs: string[]): Promise<{ exports: unknown; outcome: CodeCacheOutcome }> {
  // The write's timer does not hold the process: the file holds it for the write to be seen.
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', `${LOAD}setTimeout(() => {}, 100);`, loader, file, JSON.stringify(dirs)]);
  return JSON.parse(stdout) as { exports: unknown; outcome: CodeCacheOutcome };
}

const entriesIn = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.v8cache'));

describe('loadWithCodeCache', () => {
  it('writes an entry on the first load and compiles from it on the next', async () => {
    const dir = scratch();
    const file = join(dir, 'module.js');
    writeFileSync(file, "module.exports = { answer: [1, 2, 3].map((n) => n * 2), file: __filename, self: typeof require('node:path').join };\n");
    const cache = join(dir, 'cache');
    const first = await load(file, [cache]);
    expect(first).toEqual({ exports: { answer: [2, 4, 6], file, self: 'function' }, outcome: 'written' });
    expect(entriesIn(cache)).toHaveLength(1);
    const second = await load(file, [cache]);
    expect(second).toEqual({ exports: first.exports, outcome: 'used' });
  });

  it('never runs the code of an older source of the same length (V8 checks the length only)', async () => {
    const dir = scratch();
    const file = join(dir, 'module.js');
    const cache = join(dir, 'cache');
    writeFileSync(file, "module.exports = 'one';\n");
    expect(await load(file, [cache])).toEqual({ exports: 'one', outcome: 'written' });
    writeFileSync(file, "module.exports = 'two';\n");
    expect(await load(file, [cache])).toEqual({ exports: 'two', outcome: 'written' });
    expect(await load(file, [cache])).toEqual({ exports: 'two', outcome: 'used' });
  });

  it("keeps one entry per Node when the file's length changes, and leaves another Node's", async () => {
    const dir = scratch();
    const file = join(dir, 'module.js');
    const cache = join(dir, 'cache');
    mkdirSync(cache);
    const otherNode = 'module.js-v0.0.1-x64-20.v8cache';
    writeFileSync(join(cache, otherNode), 'another Node');
    writeFileSync(file, "module.exports = 'short';\n");
    await load(file, [cache]);
    const longer = "module.exports = 'a longer one';\n";
    writeFileSync(file, longer);
    expect(await load(file, [cache])).toEqual({ exports: 'a longer one', outcome: 'written' });
    expect(entriesIn(cache).sort()).toEqual([`module.js-${process.version}-${process.arch}-${longer.length}.v8cache`, otherNode].sort());
  });

  it.each([
    ['garbage', (_source: Buffer) => Buffer.from('not a cache entry at all')],
    ['an empty file', (_source: Buffer) => Buffer.alloc(0)],
    ['a length past the end', (_source: Buffer) => Buffer.from([0xff, 0xff, 0xff, 0x7f, 1, 2, 3])],
    ['the right source and data V8 rejects', (source: Buffer) => Buffer.concat([lengthOf(source), source, Buffer.from('bad v8 data')])],
  ])('loads past an entry of %s and writes a good one', async (_name, entry) => {
    const dir = scratch();
    const file = join(dir, 'module.js');
    const cache = join(dir, 'cache');
    writeFileSync(file, 'module.exports = 42;\n');
    await load(file, [cache]);
    const [name] = entriesIn(cache);
    writeFileSync(join(cache, name!), entry(readFileSync(file)));
    expect(await load(file, [cache])).toEqual({ exports: 42, outcome: 'written' });
    expect(await load(file, [cache])).toEqual({ exports: 42, outcome: 'used' });
  });

  it('takes the next place when the first cannot be written, and is off when none can', async () => {
    const dir = scratch();
    const file = join(dir, 'module.js');
    writeFileSync(file, 'module.exports = 7;\n');
    const notADirectory = join(file, 'cache');
    const second = join(dir, 'second');
    expect(await load(file, [notADirectory, second])).toEqual({ exports: 7, outcome: 'written' });
    expect(entriesIn(second)).toHaveLength(1);
    expect(readdirSync(dir).sort()).toEqual(['module.js', 'second']);
    expect(await load(file, [notADirectory])).toEqual({ exports: 7, outcome: 'off' });
    expect(await load(file, [])).toEqual({ exports: 7, outcome: 'off' });
  });
});

describe('codeCacheDirs', () => {
  it("keeps the cache beside the package, then in the user's cache, and honours Node's switch", () => {
    expect(codeCacheDirs('/pkg', { XDG_CACHE_HOME: '/home/me/.cache-x' })).toEqual(['/pkg/.compile-cache', '/home/me/.cache-x/petstore-mock']);
    expect(codeCacheDirs('/pkg', { NODE_DISABLE_COMPILE_CACHE: '1', XDG_CACHE_HOME: '/x' })).toEqual([]);
  });
});

function lengthOf(source: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32LE(source.length);
  return head;
}
