// The command line as CommonJS: dist/cjs/command.js, what a plain start needs, one file beside it
// per part a start may never use (the admin API, Redis, verify, the audit command, yargs, `state
// clear`), required on first use, and dist/cjs/cli.js, which runs command.js from V8's code cache
// (src/cli/code-cache.ts). Node compiles every byte of a file it loads, so these parts, half of the
// command's code, cost every start while they were in the one file (docs/performance.md, "Start
// again").
//
// A part must share the modules of command.js, not carry its own copies: two copies of errors.ts
// would be two `MockError` classes, and `instanceof` would fail across them. So command.js exports
// its modules by path (`__modules`, which cli.js passes on), and a part's import of one of them
// reads it from there. A module two parts use that command.js does not hold is added to command.js
// rather than copied into both.
import { build } from 'esbuild';
import { readFileSync, realpathSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { resolve, relative } from 'node:path';
import { jsonAsString } from './json-as-string.mjs';

/** The parts loaded on first use, by the file they are written to (dist/cjs/cli-NAME.js). */
const PARTS = {
  'admin-api': 'src/http/admin-api.ts',
  'state-redis': 'src/state-redis/index.ts',
  'state-command': 'src/cli/state-command.ts',
  verify: 'src/verify/cli.ts',
  'audit-command': 'src/audit-command/cli.ts',
  yargs: 'src/cli/yargs-args.ts',
};

const ROOT = resolve('.');
// By real path, as esbuild gives the files it resolves: in a checkout whose src/ is a symbolic link
// the parts must still be found, or they would be bundled into command.js.
const PART_OF = new Map(Object.entries(PARTS).map(([name, file]) => [realpathSync(file), `./cli-${name}.js`]));
/** The source file an import names (the code imports `.js`, the file is `.ts`). */
const sourceOf = (args) => resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');

/** The CommonJS builds' options (the library's dist/cjs/index.js and the command's files). */
export const COMMON = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Every dependency stays external (installed beside petstore-mock), but for Express in the
  // command's admin part (expressInside, below); the one ESM-only package, yargs, is imported (not
  // required) by the command line.
  packages: 'external',
  outdir: 'dist/cjs',
  metafile: true,
  // Files are found from the module's own place (the shipped scenarios, lazily required packages).
  banner: { js: "const __petstoreModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/**
 * An import of a part, from the command or another part, becomes a require of the part's file. A
 * dynamic import() stays a promise, but of a require: the command's bundle runs as a script of
 * node:vm (src/cli/code-cache.ts), and such a script has no module loader for import().
 */
const partsApart = {
  name: 'petstore-mock-parts-apart',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      if (args.namespace === 'part') return { path: args.path, external: true };
      if (args.kind === 'entry-point' || args.namespace !== 'file') return undefined;
      const part = PART_OF.get(sourceOf(args));
      return part === undefined ? undefined : { path: part, namespace: 'part' };
    });
    // Through cli.js's loader, so a part is compiled from the code cache as command.js is.
    b.onLoad({ filter: /.*/, namespace: 'part' }, ({ path }) => ({
      contents: `module.exports = require('./cli.js').__loadPart(${JSON.stringify(path)});`,
      loader: 'js',
    }));
  },
};

/** Packages of Express's tree that stay installed: large tables (character sets, media types) of little code. */
const KEEP_INSTALLED = new Set(['iconv-lite', 'mime-db']);
const requireHere = createRequire(import.meta.url);

/**
 * Express, with the packages it requires, goes into the admin part instead of staying installed:
 * finding and reading its sixty-odd packages one by one was most of the first admin call's
 * 52–66 ms, which bundled and compiled from the code cache takes about 22 ms (docs/performance.md). The library's own build keeps requiring the installed Express.
 */
const expressInside = {
  name: 'petstore-mock-express-inside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.namespace !== 'file' || args.kind === 'entry-point') return undefined;
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      if (args.path.startsWith('node:') || builtinModules.includes(name) || KEEP_INSTALLED.has(name)) return undefined;
      if (name !== 'express' && !/[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
      return { path: requireHere.resolve(args.path, { paths: [args.resolveDir] }) };
    });
  },
};

/** In a part, an import of a module command.js holds reads command.js's own instance of it, through cli.js. */
function fromCli(shared) {
  return {
    name: 'petstore-mock-from-cli',
    setup(b) {
      b.onResolve({ filter: /^\./ }, (args) => {
        if (args.namespace === 'from-cli') return { path: args.path, external: true };
        if (args.kind === 'entry-point' || args.namespace !== 'file') return undefined;
        const file = sourceOf(args);
        return shared.has(file) ? { path: file, namespace: 'from-cli' } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'from-cli' }, ({ path }) => ({
        contents: `module.exports = require('./cli.js').__modules[${JSON.stringify(relative(ROOT, path))}];`,
        loader: 'js',
      }));
    },
  };
}

/** The source files (.ts) an output of a build holds (a source map's entry holds none). */
function sourcesOf(output) {
  return Object.keys(output.inputs)
    .filter((input) => input.endsWith('.ts') && !input.includes(':'))
    .map((input) => resolve(input));
}

/** Builds command.js from an entry written here (`contents`), its parts left apart; `write: false` only measures it. */
function buildMain(contents, define, write = true) {
  return build({
    ...COMMON,
    stdin: { contents, resolveDir: ROOT, sourcefile: 'cli-entry.js', loader: 'js' },
    outfile: 'dist/cjs/command.js',
    outdir: undefined,
    write,
    define,
    plugins: [jsonAsString(), partsApart],
  });
}

/**
 * dist/cjs/cli.js: runs command.js from the code cache, passes its exports on to the parts, and
 * loads the parts (`__loadPart`) from the code cache too, except those that import() an ES module
 * (yargs, ioredis), which a script of node:vm cannot: Node requires those.
 */
function buildLoader(outputs) {
  const cached = Object.entries(outputs)
    .filter(([file, output]) => /^dist\/cjs\/cli-.+\.js$/.test(file) && !output.imports.some((i) => i.kind === 'dynamic-import'))
    .map(([file]) => `./${file.slice('dist/cjs/'.length)}`);
  const contents = [
    `const { codeCacheDirs, loadWithCodeCache } = require(${JSON.stringify(resolve('src/cli/code-cache.ts'))});`,
    "const { join } = require('node:path');",
    "const dirs = codeCacheDirs(join(__dirname, '..', '..'));",
    "const command = loadWithCodeCache(join(__dirname, 'command.js'), dirs);",
    `const cached = new Set(${JSON.stringify(cached)});`,
    'const parts = new Map();',
    'command.__loadPart = (file) => {',
    '  if (!parts.has(file)) parts.set(file, cached.has(file) ? loadWithCodeCache(join(__dirname, file), dirs) : require(file));',
    '  return parts.get(file);',
    '};',
    'module.exports = command;',
  ].join('\n');
  return build({ ...COMMON, stdin: { contents, resolveDir: ROOT, sourcefile: 'cli-loader.js', loader: 'js' }, outfile: 'dist/cjs/cli.js', outdir: undefined });
}

const MAIN = `import ${JSON.stringify(resolve('src/cli/main.ts'))};`;

/** The modules command.js holds: main.ts's static graph, and the modules named in `extra` with theirs. */
async function heldBy(define, extra) {
  // Exported, or the build would drop a module whose exports nothing reads.
  const contents = [MAIN, ...extra.map((file, i) => `export * as m${i} from ${JSON.stringify(file)};`)].join('\n');
  const probe = await buildMain(contents, define, false);
  return new Set(sourcesOf(probe.metafile.outputs['dist/cjs/command.js']));
}

/** Builds dist/cjs/command.js, its parts and cli.js (`define`: the build's constants, as for the other bundles). */
export async function buildCli(buildDefine) {
  const define = { ...buildDefine, 'import.meta.url': '__petstoreModuleUrl' };
  const entryPoints = Object.fromEntries(Object.entries(PARTS).map(([name, file]) => [`cli-${name}`, file]));
  let extra = [];
  for (;;) {
    const held = await heldBy(define, extra);
    const parts = await build({ ...COMMON, entryPoints, define, plugins: [jsonAsString(), partsApart, fromCli(held), expressInside] });
    const outputs = Object.values(parts.metafile.outputs);
    // A module in two parts and not in command.js would have two instances: it moves into command.js.
    const seen = new Map();
    for (const output of outputs) for (const file of sourcesOf(output)) seen.set(file, (seen.get(file) ?? 0) + 1);
    const twice = [...seen].filter(([, n]) => n > 1).map(([file]) => file);
    if (twice.length > 0 && extra.length > 0) throw new Error(`build-cli: modules still in two parts after moving them into command.js: ${twice.join(', ')}`);
    if (twice.length > 0) {
      extra = twice;
      continue;
    }
    // command.js exports only the modules the parts read from it: each export costs its compile.
    const used = [...new Set(outputs.flatMap((output) => Object.keys(output.inputs).filter((input) => input.startsWith('from-cli:'))))]
      .map((input) => input.slice('from-cli:'.length))
      .sort();
    const contents = [
      // main.ts first: the modules evaluate in the order they did when it was the entry.
      MAIN,
      ...used.map((file, i) => `import * as m${i} from ${JSON.stringify(file)};`),
      `export const __modules = { ${used.map((file, i) => `${JSON.stringify(relative(ROOT, file))}: m${i}`).join(', ')} };`,
    ].join('\n');
    await buildMain(contents, define);
    // A script of node:vm has no loader for import(): command.js must require what it loads.
    if (/\bimport\(/.test(readFileSync('dist/cjs/command.js', 'utf8')))
      throw new Error('build-cli: dist/cjs/command.js calls import(), which it cannot run from the code cache; import that module from a part (PARTS) instead');
    await buildLoader(parts.metafile.outputs);
    return;
  }
}
