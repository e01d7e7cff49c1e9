import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

describe('the petstore-mock command (bin/petstore-mock.js)', () => {
  it('runs the built CLI when dist/ is there, printing only what the CLI prints', () => {
    const result = spawnSync(process.execPath, ['bin/petstore-mock.js', '--version'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(version);
    expect(result.stderr).toBe('');
  });

  // A clone after `npm install` has no dist/ (installing builds nothing); its first start builds it.
  const clone = mkdtempSync(join(tmpdir(), 'petstore-clone-'));
  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  it('builds dist/ first in a clone that has none, saying so on stderr only, then runs', () => {
    for (const name of ['src', 'scripts', 'scenarios', 'fixtures', 'node_modules', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
      symlinkSync(join(ROOT, name), join(clone, name));
    }
    cpSync(join(ROOT, 'bin'), join(clone, 'bin'), { recursive: true });
    expect(existsSync(join(clone, 'dist'))).toBe(false);
    const result = spawnSync(process.execPath, [join(clone, 'bin', 'petstore-mock.js'), '--version'], { cwd: tmpdir(), encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(version);
    expect(result.stderr).toContain('petstore-mock: building dist/ first');
    expect(existsSync(join(clone, 'dist', 'cli.js'))).toBe(true);
  }, 120_000);
});
