// The OpenAPI document's validators, generated at build time as plain code (Ajv's standalone
// output), for the browser build and for Node alike: a page never compiles code (Ajv compiles with
// `new Function`, which a Content-Security-Policy without 'unsafe-eval' refuses, and the page
// carries none of Ajv), and a Node server never stalls its first request body compiling a schema,
// nor loads Ajv at all. The scenario and snapshot schemas need no code: src/core/input/schema-check.ts
// reads them as data. scripts/build.mjs (and build-cjs.mjs) bundle
// them through `esbuildValidators()`; vitest.config.ts serves the same modules to the tests
// through `viteValidators()`.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
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
  const { _ } = require('ajv');
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
  return {
    [`${PREFIX}openapi-validators`]: asModule(standaloneCode(openapi, OPENAPI_VALIDATOR_REFS), [
      `import { INTEGER_FORMATS as __formats } from ${formatsFrom};`,
    ]),
  };
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

/**
 * A schema as the page needs it: the descriptions messages quote (a oneOf's or a pattern's, see
 * src/core/scenarios/schema-errors.ts) kept, every other description and title dropped. The
 * scenario schema is half prose, and the page carries it whole otherwise.
 */
export function schemaForPage(schema) {
  if (Array.isArray(schema)) return schema.map(schemaForPage);
  if (schema === null || typeof schema !== 'object') return schema;
  const kept = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'title' || keyword === '$comment' || keyword === 'examples') continue;
    if (keyword === 'description' && !('oneOf' in schema || 'pattern' in schema)) continue;
    if (keyword === 'properties' || keyword === 'definitions')
      kept[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, schemaForPage(sub)]));
    else if (keyword === 'enum' || keyword === 'const' || keyword === 'required' || keyword === 'default') kept[keyword] = value;
    else kept[keyword] = schemaForPage(value);
  }
  return kept;
}

/** An esbuild plugin for the page's build: the shipped JSON Schemas, through `schemaForPage`. */
export function esbuildPageSchemas() {
  return {
    name: 'petstore-mock-page-schemas',
    setup(b) {
      b.onLoad({ filter: /scenarios[\\/][a-z]+\.schema\.json$/ }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        return { contents: JSON.stringify(schemaForPage(JSON.parse(await readFile(args.path, 'utf8')))), loader: 'json' };
      });
    },
  };
}
