import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { run, waitFor, type CliRun } from './cli.js';

// Switches given a value, on the command line and as variables alike, and the help's examples at
// any terminal width.
const runs: CliRun[] = [];
afterEach(() => {
  for (const r of runs.splice(0)) if (r.child.exitCode === null) r.child.kill('SIGKILL');
});
const dir = mkdtempSync(join(tmpdir(), 'petstore-switches-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REFUSED = 'takes true, 1, yes or on to turn it on, false, 0, no or off to turn it off, not "maybe".';

describe('switches given a value', () => {
  it.each([
    [['--quiet=maybe'], {}, `petstore-mock: --quiet ${REFUSED}`],
    [['--port', '0', '--watch=maybe'], {}, `petstore-mock: --watch ${REFUSED}`],
    [['--port', '0'], { PETSTORE_MOCK_QUIET: 'maybe' }, `petstore-mock: PETSTORE_MOCK_QUIET ${REFUSED}`],
  ])('%j with %j is refused in one line, exit 1', (argv, env, line) => {
    const done = spawnSync(process.execPath, ['dist/cli.js', ...argv], { env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8', timeout: 30_000 });
    expect({ status: done.status, stderr: done.stderr, stdout: done.stdout }).toEqual({ status: 1, stderr: `${line}\n`, stdout: '' });
  });

  it.each([
    [['--quiet=yes'], {}],
    [['--quiet', 'on'], {}],
    [[], { PETSTORE_MOCK_QUIET: 'yes' }],
  ])('%j with %j starts quiet: the ready line and nothing else', async (argv, env) => {
    const r = run(process.execPath, ['dist/cli.js', '--port', '0', ...argv], { env });
    runs.push(r);
    await waitFor(r, /listening on http:\/\/127\.0\.0\.1:\d+\/v1\n/);
    const res = await fetch(`${/http:\/\/127\.0\.0\.1:\d+\/v1/.exec(r.stdout())?.[0] ?? ''}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } });
    expect(res.status).toBe(200);
    r.child.kill('SIGTERM');
    await r.exited;
    expect(r.stdout().trim().split('\n')).toHaveLength(1);
  });
});

describe('--help', () => {
  it.each([40, 80, 200])('prints every example command whole on a line of its own at %i columns', (columns) => {
    const narrow = join(dir, `help-${columns}.mjs`);
    writeFileSync(
      narrow,
      `process.stdout.columns = ${columns};\nprocess.argv.splice(2, 0, '--help');\nawait import(${JSON.stringify(resolve('dist/cli.js'))});\n`,
    );
    const done = spawnSync(process.execPath, [narrow], { encoding: 'utf8', timeout: 30_000 });
    expect(done.status).toBe(0);
    const lines = done.stdout.split('\n');
    for (const command of [
      'petstore-mock --key ci-key:enterprise:100000:10000000',
      'petstore-mock --scenario my-scenario.yaml --watch',
      'petstore-mock state clear --state redis://127.0.0.1:6379/0',
      'petstore-mock verify "$URL" --key "$KEY"',
    ]) {
      expect(lines, command).toContain(`    ${command}`);
    }
  });
});
