// `npm test`: the build the tests run against, the type check and the lint side by side (each is
// one process on one core), then the test suite. The suite is not run beside the checks: its first
// files are the longest and CPU-bound (the memory/Redis differential test), and with the checks
// beside them they ran past their time. The checks' output is printed when they end; the exit code
// is the first failure's, or 0.
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

const checks = await Promise.all([
  started('type check (tsc --noEmit)', process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'], false),
  started('lint (eslint and prettier)', npm, ['run', '--silent', 'lint'], false),
]);
const failed = checks.find((code) => code !== 0);
if (failed !== undefined) process.exit(failed);
process.exit(await started('vitest', process.execPath, ['node_modules/vitest/vitest.mjs', 'run'], true));
