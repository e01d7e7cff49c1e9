import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, whose dist/ is the built package. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Lays out a throwaway project that depends on petstore-mock as a user's would: node_modules
 * links to this repository (and to the given dev tools), `.bin/petstore-mock` to the built CLI.
 * The recipe files are copied in unchanged (names may hold folders); `type` is the package.json's,
 * 'commonjs' as `npm init -y` writes it.
 */
export function userProject(files: Record<string, string>, tools: string[] = [], type: 'module' | 'commonjs' = 'module'): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-recipe-'));
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'recipe-check', private: true, type, devDependencies: { 'petstore-mock': '*' } }, null, 2)}\n`,
  );
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'petstore-mock'), 'dir');
  symlinkSync(join(ROOT, 'dist', 'cli.js'), join(dir, 'node_modules', '.bin', 'petstore-mock'));
  for (const tool of tools) {
    mkdirSync(join(dir, 'node_modules', tool, '..'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', tool), join(dir, 'node_modules', tool), 'dir');
  }
  for (const [name, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    copyFileSync(join(ROOT, source), join(dir, name));
  }
  return dir;
}
