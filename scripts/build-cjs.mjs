// The CommonJS build of the library, beside the ESM one: dist/cjs/index.js behind the `require`
// condition of package.json's `exports`, so `require('petstore-mock')` works where Node's own
// require(esm) does not reach, Jest's module system above all. dist/cjs/package.json marks the
// folder CommonJS, and the folder gets its own copy of the type declarations, which TypeScript
// then reads as CommonJS ones: the same types for `import` and `require`.
import { build } from 'esbuild';
import { cpSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonAsString } from './json-as-string.mjs';

/** Builds dist/cjs/ from src/index.ts, after dist/ holds the ESM build and the declarations. */
export async function buildCommonJs(define) {
  await build({
    entryPoints: { index: 'src/index.ts' },
    outdir: 'dist/cjs',
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    // Every dependency stays external (installed beside petstore-mock); none is ESM-only.
    packages: 'external',
    plugins: [jsonAsString()],
    // Files are found from the module's own place (the shipped scenarios, lazily required packages).
    define: { ...define, 'import.meta.url': '__petstoreModuleUrl' },
    banner: { js: "const __petstoreModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  writeFileSync('dist/cjs/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
  copyDeclarations('dist', 'dist/cjs');
}

function copyDeclarations(from, to) {
  for (const name of readdirSync(from)) {
    const path = join(from, name);
    if (path === to) continue;
    if (statSync(path).isDirectory()) copyDeclarations(path, join(to, name));
    else if (name.endsWith('.d.ts')) cpSync(path, join(to, name));
  }
}
