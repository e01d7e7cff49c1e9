// A start without --state loads no Redis client: the client is reachable only through import().
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** The packages each entry point imports statically, and those it reaches only through import(). */
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
    define: { __PETSTORE_PET_NAMES__: '[]' },
  });
  const inputs = result.metafile.inputs;
  const statics = new Set<string>();
  const lazy = new Set<string>();
  const seen = new Set<string>();
  const walk = (file: string, dynamic: boolean): void => {
    const key = `${file}|${dynamic}`;
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of inputs[file]?.imports ?? []) {
      const viaImport = dynamic || imported.kind === 'dynamic-import';
      if (imported.external) (viaImport ? lazy : statics).add(imported.path);
      else walk(imported.path, viaImport);
    }
  };
  walk(entry, false);
  return { statics, lazy };
}

describe('the Redis client', () => {
  it.each(['src/cli/main.ts', 'src/index.ts'])('is loaded by %s only through import(), when a shared state is asked for', async (entry) => {
    const { statics, lazy } = await reach(entry);
    expect(statics.has('express')).toBe(false);
    expect([...statics].filter((name) => /redis/.test(name))).toEqual([]);
    expect(lazy.has('ioredis')).toBe(true);
  });
});
