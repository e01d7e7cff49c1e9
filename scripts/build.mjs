// Builds dist/: bundled ESM for the CLI and the library (dependencies stay external), a CommonJS
// build of the library (dist/cjs/), the
// browser build (everything bundled, no Node built-ins), the library's type declarations, and the
// OpenAPI document as a file.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { shippedScenarioObjects } from './shipped-scenarios.mjs';
import { esbuildPageSchemas } from './page-schemas.mjs';
import { jsonAsString } from './json-as-string.mjs';
import { buildCommonJs } from './build-cjs.mjs';
import { buildAdminChart } from './build-admin-chart.mjs';
import { writeOperationRegistries } from './operation-registry.mjs';
import { STAMP, buildInputs } from './build-inputs.mjs';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

// The seeded animals' names come from Faker's English locale; defining them at build time spares
// start-up the parse of the whole locale (src/core/state/seed.ts).
const { faker: english } = await import('@faker-js/faker/locale/en');
// The version the CLI prints is package.json's, so there is no second copy to forget.
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const define = { __PETSTORE_PET_NAMES__: JSON.stringify(english.rawDefinitions.animal.pet_name), __PETSTORE_VERSION__: JSON.stringify(version) };

// The operations' registries come from the OpenAPI document (scripts/operation-registry.mjs).
writeOperationRegistries();
const inputs = buildInputs();
rmSync('dist', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });
await build({
  entryPoints: { index: 'src/index.ts', testcontainers: 'src/testcontainers.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  plugins: [jsonAsString()],
  define,
});
// --- The browser build (dist/browser.js) ------------------------------------------------------
// The browser has no disk to read the shipped scenarios from, and nothing to import packages with:
// they are defined into the bundle and every dependency is bundled. No schema is compiled, in a page
// or in Node: the schema checker reads the schemas as data, so a strict Content-Security-Policy is fine.
await build({
  entryPoints: { browser: 'src/browser/index.ts' },
  outdir: 'dist',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  sourcemap: true,
  logLevel: 'warning',
  // The scenario schema without the prose no message quotes (scripts/page-schemas.mjs).
  plugins: [esbuildPageSchemas()],
  define: {
    ...define,
    __PETSTORE_SHIPPED_SCENARIOS__: JSON.stringify(shippedScenarioObjects()),
  },
});
// --- end of the browser build -----------------------------------------------------------------
// Declarations only, without a type check of their own (`--noCheck`): `npm test` and `npm run
// typecheck` check the types; checking them here as well took two thirds of the build.
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--noCheck'], { stdio: 'inherit' });
// The CommonJS build (its own step, scripts/build-cjs.mjs): after the declarations it copies.
await buildCommonJs(define);
// The admin page's chart of a key's limits (its own step, scripts/build-admin-chart.mjs).
await buildAdminChart();
const { openapiDocument } = await import('../dist/index.js');
writeFileSync('dist/openapi.json', `${JSON.stringify(openapiDocument, null, 2)}\n`);
writeFileSync(STAMP, inputs);
