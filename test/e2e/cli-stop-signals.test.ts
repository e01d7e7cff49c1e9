// One stop, however it is delivered: a SIGTERM to the process group through `npm run` and `npx`
// (where npm and its shell die of it too), GNU timeout's double SIGTERM, two signals 50 ms apart.
// Each runs the lame duck and the drain, writes the --export-on-exit snapshot whole and exits 0.
// Under npm the server outlives its launcher, so its exit code is read by a subreaper (python's
// prctl), which adopts and reaps it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../src/index.js';
import { run, waitFor, type CliRun } from './cli.js';

const ROOT = resolve('.');
const dir = mkdtempSync(join(tmpdir(), 'cli-stop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Whatever a failing test left running: its process group.
const groups: number[] = [];
afterEach(() => {
  for (const group of groups.splice(0)) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
});

/** The built CLI in the project's folder, in a process group of its own; `command` goes before node (timeout). */
function cli(args: string[], options: { command?: string[] } = {}): CliRun {
  const r = run(options.command?.[0] ?? process.execPath, [...(options.command?.slice(1) ?? []), join(ROOT, 'dist/cli.js'), ...args], {
    cwd: dir,
    detached: true,
  });
  if (r.child.pid !== undefined) groups.push(r.child.pid);
  return r;
}

// A project that installed petstore-mock: its bin on npm's PATH, an npm script that runs it.
beforeAll(() => {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'petstore-mock'));
  symlinkSync('../petstore-mock/bin/petstore-mock.js', join(dir, 'node_modules', '.bin', 'petstore-mock'));
  const scripts = { mock: 'petstore-mock --port 0 --ready-json --lame-duck-time 1 --export-on-exit npm-run.json' };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ci-project', private: true, scripts }));
});

// Adopts every orphan below it (PR_SET_CHILD_SUBREAPER) and reports each exit as a JSON line on fd 3.
const REAPER = `
import ctypes, json, os, sys
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)
os.set_inheritable(3, False)
report = os.fdopen(3, 'w', buffering=1)
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os.execvp(sys.argv[1], sys.argv[1:])
try:
    os.setpgid(pid, pid)
except PermissionError:
    pass  # the child has exec'd already, having made its group itself
report.write(json.dumps({'launched': pid}) + '\\n')
while True:
    try:
        done, status = os.wait()
    except ChildProcessError:
        break
    report.write(json.dumps({'pid': done, 'code': os.waitstatus_to_exitcode(status)}) + '\\n')
`;

interface Reaped {
  stdout: () => string;
  stderr: () => string;
  /** What the reaper reported so far (launch and exits), and the processes still in the launcher's group. */
  state: () => string;
  /** The launcher's pid, also its process group. */
  launched: Promise<number>;
  /** Resolves once every process below has exited: each one's exit code by pid. */
  exits: Promise<Map<number, number>>;
}

function reaped(command: string, args: string[]): Reaped {
  const child = spawn('python3', ['-c', REAPER, command, ...args], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  let err = '';
  let report = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const fd3 = child.stdio[3] as NodeJS.ReadableStream;
  let launched: (pid: number) => void = () => undefined;
  if (child.pid !== undefined) groups.push(child.pid);
  const launchedPid = new Promise<number>((r) => (launched = r));
  fd3.on('data', (d: Buffer) => {
    report += d.toString();
    const first = /\{"launched": (\d+)\}/.exec(report);
    if (first) {
      groups.push(Number(first[1]));
      launched(Number(first[1]));
    }
  });
  const exits = new Promise<Map<number, number>>((r) =>
    child.on('close', () => {
      const codes = new Map<number, number>();
      for (const line of report.trim().split('\n')) {
        const entry = JSON.parse(line) as { pid?: number; code?: number };
        if (entry.pid !== undefined && entry.code !== undefined) codes.set(entry.pid, entry.code);
      }
      r(codes);
    }),
  );
  const state = (): string => {
    const group = /\{"launched": (\d+)\}/.exec(report)?.[1];
    const ps = spawnSync('ps', ['-o', 'pid,pgid,stat,etime,args', '-g', group ?? '0'], { encoding: 'utf8' }).stdout;
    return `reaper: ${report.trim() || '(nothing)'}\nstdout: ${out}\nstderr: ${err}\nthe group's processes:\n${ps}`;
  };
  return { stdout: () => out, stderr: () => err, state, launched: launchedPid, exits };
}

/** The promise's value, or a failure after `ms` that says what was awaited and where the processes stand. */
function within<T>(promise: Promise<T>, ms: number, what: string, state: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms\n${state()}`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function readyPid(stdout: () => string): Promise<number> {
  const fake = { stdout, stderr: () => '', child: { exitCode: null } } as unknown as CliRun;
  const [line] = await waitFor(fake, /^\{"event":"ready".*\}\n/m);
  return (JSON.parse(line) as { pid: number }).pid;
}

/** The file is a snapshot a mock restores. */
async function expectSnapshot(file: string): Promise<void> {
  const document = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { format: string };
  expect(document.format).toBe('petstore-mock/snapshot');
  const mock = await startMock();
  try {
    mock.restore(document);
  } finally {
    await mock.close();
  }
}

describe('a SIGTERM to the process group', () => {
  it.each([
    ['npm run', 'npm', ['run', '--silent', 'mock'], 'npm-run.json'],
    ['npx', 'npx', ['--no-install', 'petstore-mock', '--port', '0', '--ready-json', '--lame-duck-time', '1', '--export-on-exit', 'npx.json'], 'npx.json'],
  ])('through %s runs the lame duck and the drain, writes the export and exits 0', async (_via, command, args, file) => {
    const started = reaped(command, args);
    const pid = await within(readyPid(started.stdout), 12_000, 'ready line', started.state);
    process.kill(-(await within(started.launched, 2000, "reaper's launch line", started.state)), 'SIGTERM');
    const exits = await within(started.exits, 6000, 'end of every process after the SIGTERM', started.state);
    expect(exits.get(pid), started.stderr()).toBe(0);
    expect(started.stderr()).not.toContain('second signal');
    await expectSnapshot(file);
  });
});

describe('two signals', () => {
  it("GNU timeout's SIGTERM (to the server, then to its group) is one stop: the export is written, exit 0", async () => {
    const r = cli(['--port', '0', '--ready-json', '--lame-duck-time', '1', '--export-on-exit', 'timeout.json'], {
      command: ['timeout', '60', process.execPath],
    });
    await waitFor(r, /"event":"ready"/);
    r.child.kill('SIGTERM');
    // timeout passes on an outside signal and exits with its command's code.
    expect(await r.exited).toBe(0);
    expect(r.stderr()).toBe('');
    await expectSnapshot('timeout.json');
  });

  it('50 ms apart are one stop: the lame duck and the drain run, the export is written, exit 0', async () => {
    const r = cli(['--port', '0', '--ready-json', '--lame-duck-time', '1', '--export-on-exit', 'twice.json']);
    const [line] = await waitFor(r, /^\{.*\}\n/);
    const { origin } = JSON.parse(line) as { origin: string };
    r.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 50));
    r.child.kill('SIGTERM');
    // Still in the lame duck after the second: health says so.
    expect((await fetch(`${origin}/__admin/health`)).status).toBe(503);
    expect(await r.exited).toBe(0);
    await expectSnapshot('twice.json');
  });

  it('a later, other signal cuts the lame duck short, and the export is still written before exit 0', async () => {
    const r = cli(['--port', '0', '--ready-json', '--lame-duck-time', '3600', '--export-on-exit', 'hurried.json']);
    const [line] = await waitFor(r, /^\{.*\}\n/);
    const { origin } = JSON.parse(line) as { origin: string };
    r.child.kill('SIGTERM');
    await expect.poll(async () => (await fetch(`${origin}/__admin/health`)).status, { interval: 20 }).toBe(503);
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    expect(r.stderr()).toContain('a second signal: cutting the lame duck and the drain short');
    await expectSnapshot('hurried.json');
  });
});

describe('the export folder', () => {
  it.each([
    ['missing', 'no-such-folder/out.json', /the folder no-such-folder does not exist/],
    ['a file', 'package.json/out.json', /package\.json is not a folder/],
  ])('%s is refused at start with one line, exit 1', async (_what, file, reason) => {
    const r = cli(['--port', '0', '--export-on-exit', file]);
    expect(await r.exited).toBe(1);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toMatch(
      new RegExp(`^petstore-mock: cannot export the snapshot on exit to .*: ${reason.source}; check the path given to --export-on-exit\\.\\n$`),
    );
  });
});
