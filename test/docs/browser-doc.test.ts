import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typescriptFiles, writeDocApp } from '../support/doc-app.js';

// Every TypeScript snippet of docs/browser.md, as printed: type-checked together as the files of a
// Vite app they name, and the ones that need no page run on Node, printing what their comments say.
// test/browser/vite-app.test.ts builds and runs the page ones in Chromium.

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-doc-app-'));
  writeDocApp(dir);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `console.log(x); // expected` lines: what each call must print, as JSON. */
function expectedLogs(code: string): unknown[] {
  return [...code.matchAll(/^console\.log\(.*\); \/\/ (.+)$/gm)].map((m) => JSON.parse(m[1] as string) as unknown);
}

describe('docs/browser.md', () => {
  it('names a file for every TypeScript snippet: the mocks module, main.ts and a check that runs on Node', () => {
    expect(typescriptFiles().map((f) => f.file)).toEqual(['src/mocks/browser.ts', 'src/main.ts', 'quota.ts']);
  });

  it('type-checks as an app with the tsconfig of a Vite template', () => {
    let errors = '';
    try {
      execFileSync(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    } catch (error) {
      errors = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(errors).toBe('');
  });

  it.each(typescriptFiles().filter((f) => !/from 'msw|import\.meta\.env/.test(f.code)))(
    '$file runs on Node and prints what its comments say',
    async ({ file, code }) => {
      const expected = expectedLogs(code);
      expect(expected.length).toBeGreaterThan(0);
      const out = join(dir, `${file}.mjs`);
      // Each console.log prints its argument as JSON, one line each, to compare with the comments.
      await build({
        entryPoints: [join(dir, file)],
        bundle: true,
        format: 'esm',
        platform: 'node',
        outfile: out,
        logLevel: 'silent',
        banner: { js: 'console.log = (value) => process.stdout.write(JSON.stringify(value) + "\\n");' },
      });
      const printed = execFileSync(process.execPath, [out], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown);
      expect(printed).toEqual(expected);
    },
  );
});
