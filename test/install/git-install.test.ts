// The install from a git URL that the README offers before the package is on the registry: npm
// clones the repository, installs every devDependency there, runs `prepare` (which builds dist/),
// packs the result and installs it. A real install of some 900 packages, minutes of CPU, so it is
// not part of `npm test` (it held a CI run past ten minutes): `npm run test:install` runs it.
import { describe, expect, it } from 'vitest';
import { clone, expectWorking, install } from '../support/source-install.js';

describe('installing from git', () => {
  it('npm install git+file://<clone> gives a package whose bin and library work', async () => {
    const done = install('from-git', `git+file://${clone}`);
    expect(done.status, done.stderr).toBe(0);
    await expectWorking(done.project);
  }, 600_000);
});
