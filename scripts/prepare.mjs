// `prepare`: npm runs it in a clone of the repository (git installs, `npm install <path>`, and a
// plain `npm install` here), so that a package installed from source has its dist/ as a packed
// one does. The build needs the devDependencies: a directory installed as a dependency before its
// own `npm install` has none, and the person is told what to run instead of esbuild's stack trace.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(new URL('../node_modules/esbuild/package.json', import.meta.url))) {
  process.stderr.write(
    `petstore-mock: cannot build dist/ in ${root}: its devDependencies are not installed. Run \`npm install\` there first, then install it again.\n`,
  );
  process.exit(1);
}
await import('./build.mjs');
