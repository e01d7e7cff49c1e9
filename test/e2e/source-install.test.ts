// The install from a path to a clone that the README offers before the package is on the
// registry: npm links the clone and runs `prepare` there, which builds dist/. The git URL install
// (npm clones, installs every devDependency, builds and packs: minutes) is
// test/install/git-install.test.ts, run by `npm run test:install`; the packed tarball has
// test/e2e/pack.test.ts.
import { symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clone, expectWorking, install } from '../support/source-install.js';

describe('installing from source', () => {
  it('a path to a clone whose devDependencies are not installed is refused with what to run', () => {
    const done = install('too-early', clone);
    expect(done.status).not.toBe(0);
    expect(done.stderr).toContain(`petstore-mock: cannot build dist/ in ${clone}/: its devDependencies are not installed. Run \`npm install\` there first`);
  });

  it('npm install <path to a clone>, its devDependencies installed, gives a package whose bin and library work', async () => {
    // The clone's devDependencies are this repository's own, linked rather than installed a second
    // time (test/install/git-install.test.ts shows a full one); npm links the clone and runs its
    // `prepare` there, which builds dist/ with them.
    symlinkSync(resolve('node_modules'), join(clone, 'node_modules'), 'dir');
    const done = install('from-path', clone);
    expect(done.status, done.stderr).toBe(0);
    await expectWorking(done.project);
  }, 600_000);
});
