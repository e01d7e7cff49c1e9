#!/usr/bin/env node
// The command `petstore-mock`. An installed package ships dist/; a clone of the repository has
// one once `npm install` ran its `prepare`, but not after `npm install --ignore-scripts` or a
// `git clean`, so a start in a clone without it builds it here, printing only on stderr: stdout
// carries the ready line harnesses read.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The CommonJS bundle of the command line: one file, the quickest start (scripts/build-cjs.mjs).
const cli = new URL('../dist/cjs/cli.js', import.meta.url);
if (!existsSync(cli) && existsSync(new URL('../scripts/build.mjs', import.meta.url))) {
  process.stderr.write('petstore-mock: building dist/ first (a clone of the repository, not yet built)\n');
  // Loaded only here: node:child_process alone took 4–5 ms of every start.
  const { execFileSync } = await import('node:child_process');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: ['ignore', 2, 2] });
}
createRequire(import.meta.url)(fileURLToPath(cli));
