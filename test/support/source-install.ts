// What the tests of the installs from source share: a clone of this repository at HEAD in a
// directory of its own (removed after the file), empty `npm init -y` projects that install a spec,
// and the check that the installed bin and library work.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect } from 'vitest';
import { run, waitFor } from '../e2e/cli.js';

export const dir = mkdtempSync(join(tmpdir(), 'petstore-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
export const clone = join(dir, 'clone');
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
export function install(name: string, spec: string): { project: string; status: number | null; stderr: string } {
  const project = join(dir, name);
  mkdirSync(project);
  execFileSync(npm, ['init', '-y'], { cwd: project, env: userEnv(), stdio: 'pipe' });
  const done = spawnSync(npm, ['install', ...quiet, spec], { cwd: project, env: userEnv(), encoding: 'utf8' });
  return { project, status: done.status, stderr: done.stderr };
}

/** The bin serves the API; the library is imported as an ES module and required from CommonJS. */
export async function expectWorking(project: string): Promise<void> {
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
