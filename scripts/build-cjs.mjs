// The CommonJS build of the library, beside the ESM one: dist/cjs/index.js behind the `require`
// condition of package.json's `exports`, so `require('petstore-mock')` works where Node's own
// require(esm) does not reach, Jest's module system above all. dist/cjs/package.json marks the
// folder CommonJS, and the folder gets its own copy of the type declarations, which TypeScript
// then reads as CommonJS ones: the same types for `import` and `require`.
import { build } from 'esbuild';
import { cpSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonAsString } from './json-as-string.mjs';
import { COMMON, buildCli } from './build-cli.mjs';

// The command line is CommonJS too (scripts/build-cli.mjs); dist/cli.js only requires it, for
// those who run `node dist/cli.js`.
const CLI_SHIM = `#!/usr/bin/env node
// The command line; its code is the CommonJS bundle beside (scripts/build-cjs.mjs says why).
import { createRequire } from 'node:module';
createRequire(import.meta.url)('./cjs/cli.js');
`;

/** Builds dist/cjs/ from src/index.ts and src/cli/main.ts (its parts apart), after dist/ holds the ESM build and the declarations. */
export async function buildCommonJs(define) {
  await build({
    ...COMMON,
    entryPoints: { index: 'src/index.ts' },
    plugins: [jsonAsString()],
    define: { ...define, 'import.meta.url': '__petstoreModuleUrl' },
  });
  await buildCli(define);
  writeFileSync('dist/cjs/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
  writeFileSync('dist/cli.js', CLI_SHIM, { mode: 0o755 });
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
