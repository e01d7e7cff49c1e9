#!/usr/bin/env node
// The command `petstore-mock`. CommonJS (bin/package.json), as the command's code is: an ES module
// as the entry starts Node's ES module loader, 5–9 ms of a start in a profile (docs/performance.md).
//
// An installed package ships dist/; a clone of the repository has one once `npm install` ran its
// `prepare`, but not after `npm install --ignore-scripts` or a `git clean`, so a start in a clone
// without it builds it here, printing only on stderr: stdout carries the ready line harnesses read.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
// dist/cjs/cli.js runs the command's bundle from V8's code cache (scripts/build-cli.mjs).
const cli = join(root, 'dist', 'cjs', 'cli.js');
if (!existsSync(cli) && existsSync(join(root, 'scripts', 'build.mjs'))) {
  process.stderr.write('petstore-mock: building dist/ first (a clone of the repository, not yet built)\n');
  // Required only here: node:child_process alone took 4–5 ms of every start.
  require('node:child_process').execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: ['ignore', 2, 2] });
}
require(cli);
