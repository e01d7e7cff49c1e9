// The command line as CommonJS: dist/cjs/cli.js, what a plain start needs, and one file beside it
// per part a start may never use (the admin API, Redis, verify, the audit command, yargs, `state
// clear`), required on first use. Node compiles every byte of a file it loads, so these parts, half
// of the command's code, cost every start while they were in the one file (docs/performance.md,
// "Start again").
//
// A part must share the modules of cli.js, not carry its own copies: two copies of errors.ts would
// be two `MockError` classes, and `instanceof` would fail across them. So cli.js exports its modules
// by path (`__modules`), and a part's import of one of them reads it from there. A module two
// parts use that cli.js does not hold is added to cli.js rather than copied into both.
import { build } from 'esbuild';
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
const PART_OF = new Map(Object.entries(PARTS).map(([name, file]) => [resolve(file), `./cli-${name}.js`]));
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
  // Every dependency stays external (installed beside petstore-mock); the one ESM-only package,
  // yargs, is imported (not required) by the command line.
  packages: 'external',
  outdir: 'dist/cjs',
  metafile: true,
  // Files are found from the module's own place (the shipped scenarios, lazily required packages).
  banner: { js: "const __petstoreModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/** An import of a part, from cli.js or another part, becomes a require of the part's file. */
const partsApart = {
  name: 'petstore-mock-parts-apart',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind === 'entry-point' || args.namespace !== 'file') return undefined;
      const part = PART_OF.get(sourceOf(args));
      return part === undefined ? undefined : { path: part, external: true };
    });
  },
};

/** In a part, an import of a module cli.js holds reads cli.js's own instance of it. */
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

/** Builds cli.js from an entry written here (`contents`), its parts left apart; `write: false` only measures it. */
function buildMain(contents, define, write = true) {
  return build({
    ...COMMON,
    stdin: { contents, resolveDir: ROOT, sourcefile: 'cli-entry.js', loader: 'js' },
    outfile: 'dist/cjs/cli.js',
    outdir: undefined,
    write,
    define,
    plugins: [jsonAsString(), partsApart],
  });
}

const MAIN = `import ${JSON.stringify(resolve('src/cli/main.ts'))};`;

/** The modules cli.js holds: main.ts's static graph, and the modules named in `extra` with theirs. */
async function heldBy(define, extra) {
  // Exported, or the build would drop a module whose exports nothing reads.
  const contents = [MAIN, ...extra.map((file, i) => `export * as m${i} from ${JSON.stringify(file)};`)].join('\n');
  const probe = await buildMain(contents, define, false);
  return new Set(sourcesOf(probe.metafile.outputs['dist/cjs/cli.js']));
}

/** Builds dist/cjs/cli.js and its parts (`define`: the build's constants, as for the other bundles). */
export async function buildCli(buildDefine) {
  const define = { ...buildDefine, 'import.meta.url': '__petstoreModuleUrl' };
  const entryPoints = Object.fromEntries(Object.entries(PARTS).map(([name, file]) => [`cli-${name}`, file]));
  let extra = [];
  for (;;) {
    const held = await heldBy(define, extra);
    const parts = await build({ ...COMMON, entryPoints, define, plugins: [jsonAsString(), partsApart, fromCli(held)] });
    const outputs = Object.values(parts.metafile.outputs);
    // A module in two parts and not in cli.js would have two instances: it moves into cli.js.
    const seen = new Map();
    for (const output of outputs) for (const file of sourcesOf(output)) seen.set(file, (seen.get(file) ?? 0) + 1);
    const twice = [...seen].filter(([, n]) => n > 1).map(([file]) => file);
    if (twice.length > 0 && extra.length > 0) throw new Error(`build-cli: modules still in two parts after moving them into cli.js: ${twice.join(', ')}`);
    if (twice.length > 0) {
      extra = twice;
      continue;
    }
    // cli.js exports only the modules the parts read from it: each export costs its compile.
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
    return;
  }
}
