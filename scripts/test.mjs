// `npm test`: the build the tests run against (unless dist/ is built from these sources already), then the test suite with the type check and the
// lint beside it. The checks run at the lowest CPU priority (nice 19): they take the cycles the
// suite leaves while it waits on other processes, and give way at once to its CPU-bound files (the
// memory/Redis differential test ran past its time beside checks at normal priority). Run first,
// before the suite, they added a minute to every CI run. The checks' output is printed when the
// suite has ended; the exit code is the first failure's, or 0.
import { spawn, spawnSync } from 'node:child_process';
import { builtFromThese } from './build-inputs.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
if (builtFromThese()) {
  console.log('petstore-mock: dist/ is built from these sources already (npm install ran the build); not building again.');
} else {
  const built = spawnSync(npm, ['run', 'build'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/** The command at the lowest priority where `nice` exists; its children inherit it. */
function lowest(command, args) {
  return process.platform === 'win32' ? [command, args] : ['nice', ['-n', '19', command, ...args]];
}

/** Runs a command, its output kept (or passed through), and resolves to its exit code and output. */
function started(name, [command, args], passThrough) {
  const child = spawn(command, args, { stdio: passThrough ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
  let output = '';
  if (!passThrough) {
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      resolve({ status, report: passThrough ? '' : `\n--- ${name} ${status === 0 ? 'passed' : 'FAILED'} ---\n${output}` });
    });
  });
}

const results = await Promise.all([
  started('vitest', [process.execPath, ['node_modules/vitest/vitest.mjs', 'run']], true),
  // The type check and ESLint share one TypeScript program (scripts/checks.mjs): 64 s of CPU where
  // `tsc --noEmit` and `eslint .` apart took 123 s.
  started('type check and eslint (scripts/checks.mjs)', lowest(process.execPath, ['scripts/checks.mjs']), false),
  started('formatting (prettier --check)', lowest(process.execPath, ['node_modules/prettier/bin/prettier.cjs', '--check', '.']), false),
]);
for (const { report } of results) process.stdout.write(report);
process.exit(results.find(({ status }) => status !== 0)?.status ?? 0);
