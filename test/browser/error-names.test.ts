import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// An app's minifier renames classes, so an error's name must be a string of its own, not
// `new.target.name` or `this.constructor.name`: `err.name` then stays `ScenarioError` in a
// `vite build`, as the docs and people's catch blocks read it.

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every error class in src (a class whose ancestors reach Error), with its file and body. */
function errorClasses(): { name: string; file: string; body: string }[] {
  const classes = sourceFiles(resolve('src')).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/^export class (\w+) extends (\w+) \{\n?([\s\S]*?)^\}/gm)].map((m) => ({
      name: m[1] as string,
      parent: m[2] as string,
      file,
      body: m[3] as string,
    }));
  });
  const errors = new Set(['Error']);
  for (let grown = true; grown;) {
    grown = false;
    for (const c of classes)
      if (errors.has(c.parent) && !errors.has(c.name)) {
        errors.add(c.name);
        grown = true;
      }
  }
  return classes.filter((c) => errors.has(c.name));
}

describe('error names survive an app build', () => {
  it('every error class in src names itself with a string', () => {
    const found = errorClasses();
    expect(found.map((c) => c.name)).toEqual(expect.arrayContaining(['UserError', 'ScenarioError', 'MockOptionError', 'JournalFilterError', 'MockError']));
    const unnamed = found.filter((c) => !c.body.includes(`name = '${c.name}'`)).map((c) => `${c.name} (${c.file})`);
    expect(unnamed).toEqual([]);
  });

  it('keeps ScenarioError, MockOptionError and JournalFilterError in a minified bundle of petstore-mock/browser', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-names-'));
    try {
      // An app's code, bundled and minified as `vite build` does (esbuild renames every class).
      const app = `
        import { createFetchHandler, ScenarioError } from ${JSON.stringify(resolve('dist/browser.js'))};
        const seen = [];
        const attempt = (fn) => { try { fn(); seen.push('no error'); } catch (e) { seen.push([e.name, e instanceof Error, e instanceof ScenarioError]); } };
        const petstore = createFetchHandler();
        attempt(() => petstore.useScenario('nope'));
        attempt(() => createFetchHandler({ seed: -1 }));
        attempt(() => petstore.requests({ status: 'teapot' }));
        console.log(JSON.stringify(seen));
      `;
      const out = join(dir, 'app.js');
      await build({
        stdin: { contents: app, resolveDir: process.cwd(), loader: 'js' },
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'browser',
        outfile: out,
        logLevel: 'silent',
      });
      const bundle = readFileSync(out, 'utf8');
      // The minifier did rename the classes: the names below come from the strings alone.
      expect(bundle).not.toMatch(/class ScenarioError\b/);
      writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
      const seen = JSON.parse(execFileSync(process.execPath, [out], { encoding: 'utf8' })) as unknown;
      expect(seen).toEqual([
        ['ScenarioError', true, true],
        ['MockOptionError', true, false],
        ['JournalFilterError', true, false],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
