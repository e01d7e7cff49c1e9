// How `--export-on-exit` (and `exportOnExit`) writes its file: whole, never through a link planted
// beside it, with the target's mode or 0600 (the file holds the keys in full).
import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileAtomically } from '../../src/files/atomic-file.js';
import { startMock } from '../../src/index.js';

let dir: string;
let oldUmask: number;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-snapshot-file-'));
  // A permissive umask, so a file that ends up 0600 does so because it was made so.
  oldUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(oldUmask);
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (file: string): number => statSync(file).mode & 0o777;

describe('writeFileAtomically', () => {
  it('creates a new file 0600, and leaves no temporary file', () => {
    const file = join(dir, 'new.json');
    writeFileAtomically(file, '{"a":1}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n');
    expect(modeOf(file)).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it.each([
    ['0600', 0o600],
    ['0640', 0o640],
    ['0644', 0o644],
  ])('keeps an existing target at its mode %s', (_name, mode) => {
    const file = join(dir, `kept-${mode.toString(8)}.json`);
    writeFileSync(file, 'old', { mode });
    writeFileAtomically(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(modeOf(file)).toBe(mode);
  });

  it('never follows a link planted at the temporary name it picks: the write fails, the linked file untouched', () => {
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const file = join(dir, 'planted.json');
    const name = (target: string): string => join(dirname(target), `.${basename(target)}.chosen.tmp`);
    symlinkSync(victim, name(file));
    expect(() => writeFileAtomically(file, 'keys in full', name)).toThrow(/EEXIST/);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    // The planted link is not ours to remove, and no target was written.
    expect(lstatSync(name(file)).isSymbolicLink()).toBe(true);
    expect(() => statSync(file)).toThrow(/ENOENT/);
  });

  it('is not fooled by a link at the old predictable name (.NAME.PID.tmp)', () => {
    const victim = join(dir, 'victim-pid.txt');
    writeFileSync(victim, 'precious');
    const file = join(dir, 'predictable.json');
    symlinkSync(victim, join(dir, `.predictable.json.${process.pid}.tmp`));
    writeFileAtomically(file, 'keys in full');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readFileSync(file, 'utf8')).toBe('keys in full');
    expect(modeOf(file)).toBe(0o600);
  });
});

describe('exportOnExit', () => {
  it('writes the snapshot 0600 when new, and keeps a 0600 file 0600', async () => {
    const fresh = join(dir, 'export-new.json');
    const kept = join(dir, 'export-kept.json');
    writeFileSync(kept, '{}', { mode: 0o600 });
    for (const file of [fresh, kept]) {
      const mock = await startMock({ exportOnExit: file });
      await mock.close();
      expect((JSON.parse(readFileSync(file, 'utf8')) as { format: string }).format).toBe('petstore-mock/snapshot');
      expect(modeOf(file)).toBe(0o600);
    }
  });
});
