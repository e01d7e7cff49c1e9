// What petstore-mock/browser adds to an app: a small app importing it, bundled and minified as
// `vite build` bundles an app (every import inlined, identifiers mangled, dead code dropped), then
// gzipped. `node scripts/browser-size.mjs` (after `npm run build`) prints the figure and what each
// part of the build costs; test/browser/bundle-size.test.ts holds it under its budget.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { esbuildPageSchemas } from './page-schemas.mjs';
import { shippedScenarioObjects } from './shipped-scenarios.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The app: the handler set up as docs/browser.md does, without MSW (which the app pays for either way). */
const app = (from) => `
import { createFetchHandler } from ${JSON.stringify(from)};
globalThis.petstore = createFetchHandler({ scenario: 'rate-limit-minute' });
`;

const MINIFIED_APP = { bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent', outfile: 'app.js' };

/** Bundles the app against the built `petstore-mock/browser` and gives its bytes, minified and gzipped. */
export async function measureBrowserBuild(bundle = resolve(ROOT, 'dist/browser.js')) {
  const result = await build({ ...MINIFIED_APP, stdin: { contents: app(bundle), resolveDir: ROOT, loader: 'js' } });
  const output = result.outputFiles[0].contents;
  return { minified: output.length, gzip: gzipSync(output).length };
}

/** Which package or part of petstore-mock an input of the bundle is. */
function partOf(input) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (pkg) return pkg[1];
  if (input.startsWith('<define:')) return 'shipped scenarios and pet names';
  return 'petstore-mock code';
}

/** The same app bundled from the sources, as scripts/build.mjs builds them: the minified bytes of each part. */
export async function browserBuildParts() {
  const parts = new Map();
  for (const [input, bytes] of await browserBuildInputs()) parts.set(partOf(input), (parts.get(partOf(input)) ?? 0) + bytes);
  return [...parts].sort((a, b) => b[1] - a[1]);
}

/** The same app bundled from the sources: each input file and its minified bytes. */
export async function browserBuildInputs() {
  const { faker } = await import('@faker-js/faker/locale/en');
  const result = await build({
    ...MINIFIED_APP,
    stdin: { contents: app('./src/browser/index.ts'), resolveDir: ROOT, loader: 'ts' },
    metafile: true,
    plugins: [esbuildPageSchemas()],
    define: {
      __PETSTORE_PET_NAMES__: JSON.stringify(faker.rawDefinitions.animal.pet_name),
      __PETSTORE_VERSION__: '"0.0.0"',
      __PETSTORE_SHIPPED_SCENARIOS__: JSON.stringify(shippedScenarioObjects(resolve(ROOT, 'scenarios'))),
    },
  });
  return Object.entries(Object.values(result.metafile.outputs)[0].inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { minified, gzip } = await measureBrowserBuild();
  console.log(`petstore-mock/browser in a minified app: ${(minified / 1000).toFixed(1)} kB, ${(gzip / 1000).toFixed(1)} kB gzip`);
  for (const [part, bytes] of await browserBuildParts()) console.log(`  ${part}: ${(bytes / 1000).toFixed(1)} kB minified`);
}
