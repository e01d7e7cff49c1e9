// The schema validators, generated at build time as plain code (Ajv's standalone output), for the
// browser build and for Node alike: a page never compiles code (Ajv compiles with `new Function`,
// which a Content-Security-Policy without 'unsafe-eval' refuses, and the page carries none of
// Ajv), and a Node server never stalls a request compiling a schema (the first scenario object or
// snapshot took 0.35-1.7 s), nor loads Ajv at all. scripts/build.mjs (and build-cjs.mjs) bundle
// them through `esbuildValidators()`; vitest.config.ts serves the same modules to the tests
// through `viteValidators()`.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const require = createRequire(import.meta.url);
const PREFIX = 'virtual:petstore-mock/';

// Ajv's run-time helpers the generated code may require, and what the page calls instead.
const RUNTIME = {
  'ajv/dist/runtime/ucs2length': { name: 'ucs2length', from: 'src/browser/validator-runtime.ts' },
};

/** Ajv's standalone code as an ES module: its `require`s of run-time helpers become imports of ours. */
function asModule(code, imports) {
  const used = new Map();
  // A module is strict already; Ajv's directive would land after the imports.
  const body = code.replace(/^"use strict";/, '').replace(/require\("([^"]+)"\)(\.default)?/g, (_all, path) => {
    const helper = RUNTIME[path];
    if (!helper) {
      throw new Error(`petstore-mock build: a generated validator needs ${path}; give the page its own version in RUNTIME (scripts/browser-validators.mjs).`);
    }
    used.set(helper.name, helper.from);
    return helper.name;
  });
  const lines = [...imports, ...[...used].map(([name, from]) => `import { ${name} } from ${JSON.stringify(join(ROOT, from))};`)];
  return `${lines.join('\n')}\n${body}\n`;
}

async function generate() {
  const { Ajv, _ } = require('ajv');
  const { Ajv2020 } = require('ajv/dist/2020.js');
  const standaloneCode = require('ajv/dist/standalone/index.js').default;
  // The OpenAPI validators come from the same set-up Node compiles at run time
  // (src/core/input/openapi-ajv.ts), bundled here for Node to import.
  const bundled = await build({
    entryPoints: [join(ROOT, 'src/core/input/openapi-ajv.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    logLevel: 'warning',
  });
  const { openApiAjv, OPENAPI_VALIDATOR_REFS } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
  const openapi = openApiAjv(Ajv2020, { code: { source: true, esm: true, formats: _`__formats` } });
  const formatsFrom = JSON.stringify(join(ROOT, 'src/core/input/openapi-ajv.ts'));
  // As src/files/scenario-files.ts checks scenario files: draft-07, every error, with the values.
  const schema = JSON.parse(readFileSync(join(ROOT, 'scenarios/scenario.schema.json'), 'utf8'));
  const scenarios = new Ajv({ allErrors: true, verbose: true, strict: true, code: { source: true, esm: true } });
  scenarios.addSchema(schema);

  return {
    [`${PREFIX}openapi-validators`]: asModule(standaloneCode(openapi, OPENAPI_VALIDATOR_REFS), [
      `import { INTEGER_FORMATS as __formats } from ${formatsFrom};`,
    ]),
    [`${PREFIX}scenario-validator`]: asModule(standaloneCode(scenarios, { validateScenario: schema.$id }), []),
  };
}

/**
 * Node's checks of scenarios and snapshots (src/files/object-validators.ts), generated as a
 * CommonJS file: required synchronously on first use, so neither a start nor the library's import
 * pays for them, and neither a request nor a library call waits for a compile. Both schemas come
 * from one Ajv with the options src/files/scenario-files.ts always checked with (every error, with
 * the values), so the scenario schema's code is there once. Written atomically to `file`.
 */
export function writeObjectValidators(file) {
  const { Ajv } = require('ajv');
  const standaloneCode = require('ajv/dist/standalone/index.js').default;
  const read = (name) => JSON.parse(readFileSync(join(ROOT, 'scenarios', name), 'utf8'));
  const scenario = read('scenario.schema.json');
  const snapshot = read('snapshot.schema.json');
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, code: { source: true } });
  ajv.addSchema(scenario);
  ajv.addSchema(snapshot);
  const helpers = new Set();
  const code = standaloneCode(ajv, { validateScenario: scenario.$id, validateSnapshot: snapshot.$id }).replace(
    /require\("([^"]+)"\)(\.default)?/g,
    (_all, path) => {
      if (path !== 'ajv/dist/runtime/ucs2length') {
        throw new Error(
          `petstore-mock build: a generated validator needs ${path}; give it its own version in writeObjectValidators (scripts/browser-validators.mjs).`,
        );
      }
      helpers.add(path);
      return '__ucs2length';
    },
  );
  // Ajv's helper, as the page's (src/browser/validator-runtime.ts): requiring Ajv's would load Ajv's files.
  const runtime = helpers.size > 0 ? 'function __ucs2length(text) { let n = 0; for (const _ of text) n++; return n; }\n' : '';
  const text = `// Generated by scripts/browser-validators.mjs from scenarios/*.schema.json; do not edit.\n${runtime}${code}\n`;
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

let modules;
/** The generated modules by name, made once per process. */
export function validatorModules() {
  return (modules ??= generate());
}

/** An esbuild plugin that resolves `virtual:petstore-mock/...` to the generated validators. */
export function esbuildValidators() {
  return {
    name: 'petstore-mock-validators',
    setup(b) {
      b.onResolve({ filter: /^virtual:petstore-mock\// }, (args) => ({ path: args.path, namespace: 'petstore-mock-validators' }));
      b.onLoad({ filter: /.*/, namespace: 'petstore-mock-validators' }, async (args) => {
        const contents = (await validatorModules())[args.path];
        if (contents === undefined) return { errors: [{ text: `no generated module ${args.path}` }] };
        return { contents, loader: 'js', resolveDir: ROOT };
      });
    },
  };
}

/** The same for Vite (the tests' config): `virtual:petstore-mock/...` resolves to the generated validators. */
export function viteValidators() {
  return {
    name: 'petstore-mock-validators',
    resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : undefined),
    load: async (id) => (id.startsWith(`\0${PREFIX}`) ? (await validatorModules())[id.slice(1)] : undefined),
  };
}
