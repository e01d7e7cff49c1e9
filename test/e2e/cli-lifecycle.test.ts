import { describe, expect, it } from 'vitest';
import { cliLauncher, run, waitFor, waitForPortClosed, type CliRun } from './cli.js';

const cli = cliLauncher('--port', '0', '--ready-json');

/**
 * Starts the built CLI the way npx does: a launcher process runs `sh -c`, which runs node, with
 * npm's environment. The launcher here is a node process that stays until it is killed.
 */
function viaLauncher(): CliRun {
  const script = [
    "const { spawn } = require('node:child_process');",
    // `; exit $?` keeps the shell between the launcher and node, as npm's shell stays.
    `spawn('sh', ['-c', '"${process.execPath}" dist/cli.js --port 0 --ready-json; exit $?'], { stdio: 'inherit', env: { ...process.env, npm_command: 'exec', npm_lifecycle_event: 'npx' } });`,
  ].join('\n');
  return run(process.execPath, ['-e', script]);
}

async function ready(r: CliRun): Promise<{ port: number; pid: number }> {
  const [line] = await waitFor(r, /^\{.*\}\n/);
  return JSON.parse(line) as { port: number; pid: number };
}

describe('stopping', () => {
  it.each([['SIGTERM'], ['SIGINT'], ['SIGHUP']] as const)('%s stops the server and frees the port', async (signal) => {
    const r = cli();
    const { port } = await ready(r);
    r.child.kill(signal);
    expect(await r.exited).toBe(0);
    await waitForPortClosed(port);
  });

  it('under npx, the server stops when the launcher goes away without passing a signal on', async () => {
    const launcher = viaLauncher();
    const { port, pid } = await ready(launcher);
    expect(pid).not.toBe(launcher.child.pid);
    // SIGKILL passes nothing on: the shell stays, now without its parent, as after a SIGHUP to npm.
    launcher.child.kill('SIGKILL');
    await waitForPortClosed(port);
    expect(launcher.stderr()).toContain('petstore-mock: the npm process that started this server has gone (npx or npm run was stopped); stopping too.\n');
  });

  it('under npx, the server stops when the shell between goes away (npm passed SIGTERM to it)', async () => {
    const launcher = viaLauncher();
    const { port } = await ready(launcher);
    const { execFileSync } = await import('node:child_process');
    const shell = execFileSync('pgrep', ['-P', String(launcher.child.pid), 'sh'], { encoding: 'utf8' }).trim();
    process.kill(Number(shell), 'SIGKILL');
    await waitForPortClosed(port);
    launcher.child.kill('SIGKILL');
  });
});
