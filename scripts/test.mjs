// `npm test`: the build the tests run against, then the type check, the lint and the test suite side
// by side. They are independent, and the suite spends most of its time waiting on other processes
// (installs, servers, a browser, podman): run one after the other, the checks added a minute and a
// half to every CI run. The checks' output is printed when they end; the exit code is the first
// failure's, or 0.
import { spawn, spawnSync } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const built = spawnSync(npm, ['run', 'build'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

/** Runs a command, its output kept for the end (or passed through), and resolves to its exit code. */
function started(name, command, args, passThrough) {
  const child = spawn(command, args, { stdio: passThrough ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
  let output = '';
  if (!passThrough) {
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      if (!passThrough) process.stdout.write(`\n--- ${name} ${code === 0 ? 'passed' : 'FAILED'} ---\n${output}`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const codes = await Promise.all([
  started('type check (tsc --noEmit)', process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'], false),
  started('lint (eslint and prettier)', npm, ['run', '--silent', 'lint'], false),
  started('vitest', process.execPath, ['node_modules/vitest/vitest.mjs', 'run'], true),
]);
process.exit(codes.find((code) => code !== 0) ?? 0);
