import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, waitFor } from './cli.js';

// The two installs the README offers before the package is on the registry, from a clone of this
// repository at HEAD: a git URL (npm clones it, installs its devDependencies and runs `prepare`,
// which builds dist/) and a path to a clone (npm links it and runs `prepare` there). Each is a
// real npm install, so this file is slow; the packed tarball has test/e2e/pack.test.ts.
const dir = mkdtempSync(join(tmpdir(), 'petstore-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const clone = join(dir, 'clone');
execFileSync('git', ['clone', '--quiet', resolve('.'), clone]);

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = ['--no-audit', '--no-fund', '--prefer-offline'];

/** A person's shell: none of the npm_* variables `npm test` hands its children, no ~/.npmrc. */
function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  writeFileSync(join(dir, '.npmrc-empty'), '');
  return { ...env, NO_COLOR: '1', npm_config_userconfig: join(dir, '.npmrc-empty') };
}

/** An empty `npm init -y` project (CommonJS) that installs `spec`. */
function install(name: string, spec: string): { project: string; status: number | null; stderr: string } {
  const project = join(dir, name);
  mkdirSync(project);
  execFileSync(npm, ['init', '-y'], { cwd: project, env: userEnv(), stdio: 'pipe' });
  const done = spawnSync(npm, ['install', ...quiet, spec], { cwd: project, env: userEnv(), encoding: 'utf8' });
  return { project, status: done.status, stderr: done.stderr };
}

/** The bin serves the API; the library is imported as an ES module and required from CommonJS. */
async function expectWorking(project: string): Promise<void> {
  const r = run(join(project, 'node_modules', '.bin', 'petstore-mock'), ['--port', '0'], { cwd: project });
  try {
    const [, url] = await waitFor(r, /(http:\/\/127\.0\.0\.1:\d+\/v1)/, 30_000);
    const res = await fetch(`${url}/pets/1`, { headers: { authorization: 'Bearer demo-pro' } });
    expect(res.status).toBe(200);
  } finally {
    r.child.kill('SIGTERM');
    await r.exited;
  }
  writeFileSync(
    join(project, 'use.mjs'),
    "import { startMock } from 'petstore-mock';\nconst m = await startMock();\nconsole.log(m.url.startsWith('http://127.0.0.1:'));\nawait m.close();\n",
  );
  writeFileSync(
    join(project, 'use.cjs'),
    "const { startMock } = require('petstore-mock');\nstartMock().then(async (m) => { console.log(m.url.startsWith('http://127.0.0.1:')); await m.close(); });\n",
  );
  for (const file of ['use.mjs', 'use.cjs']) {
    const ran = spawnSync(process.execPath, [file], { cwd: project, env: userEnv(), encoding: 'utf8' });
    expect({ file, out: ran.stdout.trim(), err: ran.stderr }).toEqual({ file, out: 'true', err: '' });
  }
}

describe('installing from source', () => {
  it('a path to a clone whose devDependencies are not installed is refused with what to run', () => {
    const done = install('too-early', clone);
    expect(done.status).not.toBe(0);
    expect(done.stderr).toContain(`petstore-mock: cannot build dist/ in ${clone}/: its devDependencies are not installed. Run \`npm install\` there first`);
  });

  it('npm install git+file://<clone> gives a package whose bin and library work', async () => {
    const done = install('from-git', `git+file://${clone}`);
    expect(done.status, done.stderr).toBe(0);
    await expectWorking(done.project);
  }, 600_000);

  it('npm install <path to a clone>, its devDependencies installed, gives a package whose bin and library work', async () => {
    // The clone's devDependencies are this repository's own, linked rather than installed a second
    // time (the git install above already shows a full one); npm links the clone and runs its
    // `prepare` there, which builds dist/ with them.
    symlinkSync(resolve('node_modules'), join(clone, 'node_modules'), 'dir');
    const done = install('from-path', clone);
    expect(done.status, done.stderr).toBe(0);
    await expectWorking(done.project);
  }, 600_000);
});
