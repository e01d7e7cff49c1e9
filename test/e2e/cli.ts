import { afterEach } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { connect } from 'node:net';

/** A spawned CLI with its output so far. */
export interface CliRun {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Spawns a command and collects its output. */
export function run(command: string, args: string[], options: { cwd?: string; detached?: boolean; env?: NodeJS.ProcessEnv } = {}): CliRun {
  const child = spawn(command, args, { cwd: options.cwd, detached: options.detached, env: { ...process.env, NO_COLOR: '1', ...options.env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits until stdout (or stderr) matches, or fails with what was printed. */
export async function waitFor(cli: CliRun, pattern: RegExp, timeoutMs = 15_000, stream: 'stdout' | 'stderr' = 'stdout'): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(cli[stream]());
    if (match) return match;
    if (cli.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`no ${pattern} in ${stream}; stdout:\n${cli.stdout()}\nstderr:\n${cli.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Starts the built CLI (`dist/cli.js`) with `fixed` arguments before each call's own; every process
 * it started is killed after each test of the file (or describe block) that made it.
 */
export function cliLauncher(...fixed: string[]): (...args: string[]) => CliRun {
  const runs: CliRun[] = [];
  afterEach(() => {
    for (const r of runs.splice(0)) if (r.child.exitCode === null) r.child.kill('SIGKILL');
  });
  return (...args) => {
    const r = run(process.execPath, ['dist/cli.js', ...fixed, ...args]);
    runs.push(r);
    return r;
  };
}

/** Whether nothing listens on 127.0.0.1:port any more. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** Waits until nothing listens on the port any more (a server that stopped), or fails. */
export async function waitForPortClosed(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await refused(port))) {
    if (Date.now() > deadline) throw new Error(`something still listens on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
