// The audit command is Node-side and loads only when run: neither a server start nor the
// library's import reaches its runner or reporters except through import().
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** The source files an entry reaches by static imports, and those it reaches only through import(). */
async function reach(entry: string): Promise<{ statics: Set<string>; lazy: Set<string> }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    outdir: 'unused',
    define: { __PETSTORE_PET_NAMES__: '[]', __PETSTORE_VERSION__: '"0"' },
  });
  const inputs = result.metafile.inputs;
  const statics = new Set<string>();
  const lazy = new Set<string>();
  const walk = (file: string, dynamic: boolean): void => {
    const into = dynamic ? lazy : statics;
    if (into.has(file)) return;
    into.add(file);
    for (const imported of inputs[file]?.imports ?? []) if (!imported.external) walk(imported.path, dynamic || imported.kind === 'dynamic-import');
  };
  walk(entry, false);
  return { statics, lazy };
}

describe('the audit command', () => {
  it.each([
    ['src/cli/main.ts', 'src/audit-command/cli.ts'],
    ['src/index.ts', 'src/audit-command/fetch-audit.ts'],
  ])('is reached from %s only through import()', async (entry, runner) => {
    const { statics, lazy } = await reach(entry);
    const door = ['src/audit-command/entry.ts', 'src/audit-command/could-not-run.ts'];
    expect([...statics].filter((file) => file.startsWith('src/audit-command/') && !door.includes(file))).toEqual([]);
    expect(lazy.has(runner)).toBe(true);
  });
});
