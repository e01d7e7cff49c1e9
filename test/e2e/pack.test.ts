import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, waitFor, waitForPortClosed } from './cli.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the packed package', () => {
  it('installs into an empty project and its petstore-mock binary serves the API', async () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const tarball = execFileSync(npm, ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir], { cwd: resolve('.'), encoding: 'utf8' }).trim().split('\n').pop() as string;
    writeFileSync(join(dir, 'package.json'), '{"name":"consumer","version":"1.0.0","private":true,"type":"module"}');
    execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball)], { cwd: dir, stdio: 'pipe' });
    const r = run(join(dir, 'node_modules', '.bin', 'petstore-mock'), ['--port', '0'], { cwd: dir });
    try {
      const [, url] = await waitFor(r, /(http:\/\/127\.0\.0\.1:\d+\/v1)/);
      const res = await fetch(`${url}/pets/1`, { headers: { authorization: 'Bearer demo-pro' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      const doc = await fetch(`${url}/openapi.json`);
      expect(((await doc.json()) as { info: { version: string } }).info.version).toBe('1.0.0');
    } finally {
      r.child.kill('SIGTERM');
      await r.exited;
    }
    writeFileSync(join(dir, 'use.mjs'), [
      "import { startMock } from 'petstore-mock';",
      'const m = await startMock();',
      "const r = await fetch(m.url + '/pets?limit=1', { headers: { authorization: 'Bearer demo-free' } });",
      "await m.useScenario('removed');",
      "const gone = await fetch(m.url + '/pets/1', { headers: { authorization: 'Bearer demo-free' } });",
      "console.log(r.status, gone.status, m.url.startsWith('http://127.0.0.1:'));",
      'await m.close();',
      '',
    ].join('\n'));
    expect(execFileSync(process.execPath, ['use.mjs'], { cwd: dir, encoding: 'utf8' }).trim()).toBe('200 410 true');
    const listed = execFileSync(join(dir, 'node_modules', '.bin', 'petstore-mock'), ['scenarios'], { cwd: dir, encoding: 'utf8' });
    expect(listed.split('\n')[0]).toMatch(/^default\s+The specification's behaviour/);
    expect(listed).toMatch(/^flaky\s+/m);

  }, 120_000);

  // npx runs the bin through a shell (npm → sh -c → node): a signal to npx alone must not leave
  // the server holding its port, and Ctrl-C (SIGINT to the terminal's whole process group) stops it.
  it.runIf(process.platform !== 'win32').each([
    ['SIGTERM to npx', 'SIGTERM', false],
    ['SIGHUP to npx', 'SIGHUP', false],
    ['Ctrl-C (SIGINT to the process group)', 'SIGINT', true],
  ] as const)('%s stops the server started by `npx petstore-mock`', async (_what, signal, group) => {
    const npx = run('npx', ['petstore-mock', '--port', '0', '--ready-json'], { cwd: dir, detached: group });
    try {
      const [line] = await waitFor(npx, /^\{.*\}\n/m, 60_000);
      const { port, pid } = JSON.parse(line) as { port: number; pid: number };
      expect(pid).not.toBe(npx.child.pid);
      if (group) process.kill(-(npx.child.pid as number), signal);
      else npx.child.kill(signal);
      await waitForPortClosed(port);
    } finally {
      if (npx.child.exitCode === null) npx.child.kill('SIGKILL');
    }
  }, 90_000);
});
