// The command's build (scripts/build-cli.mjs): a plain start reads dist/cjs/cli.js, the code cache's
// loader, and dist/cjs/command.js alone, and the parts it loads on first use share command.js's
// modules instead of carrying copies (two copies of errors.ts would be two MockError classes).
// `npm test` builds dist/ before the suite.
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';

/** The source modules a bundle holds, from esbuild's `// src/…` marker before each one. */
const modulesOf = (file: string): Set<string> => new Set(readFileSync(`dist/cjs/${file}`, 'utf8').match(/^\/\/ src\/\S+\.ts$/gm) ?? []);

const PARTS = readdirSync('dist/cjs').filter((name) => /^cli-.+\.js$/.test(name));

describe("the command's build", () => {
  it('has its lazily loaded parts apart', () => {
    expect(PARTS.sort()).toEqual(['cli-admin-api.js', 'cli-audit-command.js', 'cli-state-command.js', 'cli-state-redis.js', 'cli-verify.js', 'cli-yargs.js']);
  });

  it('keeps Redis, verify, the admin API, the audit command and yargs out of command.js', () => {
    const held = [...modulesOf('command.js')];
    expect(held).toContain('// src/core/errors.ts');
    expect(held.filter((m) => /src\/(state-redis|audit-command)\/|src\/verify\/(?!printable)|admin-api|yargs-args|state-command/.test(m))).toEqual([]);
  });

  it('has cli.js hold the code cache and its atomic write alone, and command.js load no part with import() (a node:vm script cannot)', () => {
    expect([...modulesOf('cli.js')].sort()).toEqual(['// src/cli/code-cache.ts', '// src/files/atomic-file.ts']);
    const command = readFileSync('dist/cjs/command.js', 'utf8');
    expect(command).not.toMatch(/\bimport\(/);
    expect(command).toMatch(/require\("\.\/cli\.js"\)\.__loadPart\("\.\/cli-admin-api\.js"\)/);
  });

  it("bundles Express into the admin part alone, which requires no package but Express's two tables (dependencies of petstore-mock's own)", () => {
    const admin = readFileSync('dist/cjs/cli-admin-api.js', 'utf8');
    expect(admin).toMatch(/^\/\/ node_modules\/express\/lib\/express\.js$/m);
    const packages = new Set(
      [...admin.matchAll(/require\("([^".][^"]*)"\)/g)].map((m) => m[1] as string).filter((name) => !builtinModules.includes(name.replace(/^node:/, ''))),
    );
    expect([...packages].sort()).toEqual(['iconv-lite', 'mime-db']);
    const dependencies = (JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    for (const name of packages) expect(dependencies[name]).toBeDefined();
    for (const file of ['command.js', ...PARTS.filter((part) => part !== 'cli-admin-api.js')]) {
      expect(readFileSync(`dist/cjs/${file}`, 'utf8')).not.toMatch(/^\/\/ node_modules\//m);
    }
  });

  it('loads the parts from the code cache through cli.js, but those that import() an ES module (a node:vm script cannot)', () => {
    const loader = readFileSync('dist/cjs/cli.js', 'utf8');
    const cached = JSON.parse(/new Set\((\[[^\]]*\])\)/.exec(loader)?.[1] ?? '[]') as string[];
    expect(cached).toContain('./cli-admin-api.js');
    expect(cached).not.toContain('./cli-yargs.js');
    expect(cached).not.toContain('./cli-state-redis.js');
  });

  // cli.js's copy of atomic-file.ts is the one exception: it has no state and no class, and the
  // loader runs before command.js exists to read it from.
  it('gives no module to two files: a part reads what command.js holds through cli.js', () => {
    const owners = new Map<string, string[]>();
    for (const file of ['cli.js', 'command.js', ...PARTS]) {
      for (const m of modulesOf(file)) if (file !== 'cli.js' || !m.endsWith('atomic-file.ts')) owners.set(m, [...(owners.get(m) ?? []), file]);
    }
    expect([...owners].filter(([, files]) => files.length > 1)).toEqual([]);
    expect(readFileSync('dist/cjs/cli-state-redis.js', 'utf8')).toMatch(/require\("\.\/cli\.js"\)\.__modules\["src\/core\/errors\.ts"\]/);
  });
});
