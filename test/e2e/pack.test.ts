import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { run, waitFor, waitForPortClosed } from './cli.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const readme = readFileSync(resolve('README.md'), 'utf8');

/**
 * The environment of a person's shell: none of the npm_* variables `npm test` hands its children,
 * and an empty user config, so that what npm prints is about the package, not this machine's
 * own ~/.npmrc.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  writeFileSync(join(dir, '.npmrc-empty'), '');
  return { ...env, NO_COLOR: '1', npm_config_userconfig: join(dir, '.npmrc-empty') };
}

/** The code blocks the README marks with `<!-- runnable -->`, in order. */
function runnableSnippets(): string[] {
  return [...readme.matchAll(/^<!-- runnable -->\n```js\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
}

describe('the packed package', () => {
  it('installs into an empty npm init -y project without a warning; its binary serves the API, and every runnable README snippet runs as printed', async () => {
    const env = userEnv();
    const tarball = execFileSync(npm, ['pack', '--silent', '--pack-destination', dir], {
      cwd: resolve('.'),
      encoding: 'utf8',
      env: { ...env, PETSTORE_MOCK_PACK_PREBUILT: '1' },
    })
      .trim()
      .split('\n')
      .pop() as string;
    const manifest = JSON.parse(execFileSync('tar', ['-xOzf', join(dir, tarball), 'package/package.json'], { encoding: 'utf8' })) as {
      scripts?: Record<string, string>;
      repository?: { url: string };
      homepage?: string;
      bugs?: { url: string };
    };
    expect(Object.keys(manifest.scripts ?? {}).filter((s) => /^(pre|post)?(install|prepare)$/.test(s))).toEqual([]);
    expect(manifest.repository?.url).toBe('git+https://github.com/petstore-mock/petstore-mock.git');
    expect(manifest.homepage).toBe('https://github.com/petstore-mock/petstore-mock#readme');
    expect(manifest.bugs?.url).toBe('https://github.com/petstore-mock/petstore-mock/issues');
    const listed = execFileSync('tar', ['-tzf', join(dir, tarball)], { encoding: 'utf8' }).split('\n');
    expect(listed).toEqual(
      expect.arrayContaining([
        'package/LICENSE',
        'package/README.md',
        'package/docs/reference.md',
        'package/scenarios/scenario.schema.json',
        'package/scenarios/snapshot.schema.json',
      ]),
    );
    // This checkout's own code cache (src/cli/code-cache.ts) is not shipped.
    expect(listed.filter((file) => /compile-cache|\.v8cache/.test(file))).toEqual([]);

    // As a person starts: npm init -y (a CommonJS project), then npm i -D petstore-mock.
    execFileSync(npm, ['init', '-y'], { cwd: dir, env, stdio: 'pipe' });
    expect((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: string }).type ?? 'commonjs').toBe('commonjs');
    const install = spawnSync(npm, ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball)], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).toBe('');
    expect(install.stdout).not.toMatch(/warn/i);

    const r = run(join(dir, 'node_modules', '.bin', 'petstore-mock'), ['--port', '0'], { cwd: dir });
    try {
      const [, url] = await waitFor(r, /(http:\/\/127\.0\.0\.1:\d+\/v1)/);
      const res = await fetch(`${url}/pets/1`, { headers: { authorization: 'Bearer demo-pro' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      const doc = await fetch(`${url}/openapi.json`);
      expect(((await doc.json()) as { info: { version: string } }).info.version).toBe('1.0.0');
      // The installed command keeps its code cache in its own package, for the next start.
      const cache = join(dir, 'node_modules', 'petstore-mock', '.compile-cache');
      await vi.waitFor(() => expect(existsSync(cache) ? readdirSync(cache).filter((name) => name.endsWith('.v8cache')) : []).toHaveLength(1), {
        timeout: 10_000,
      });
      // The admin part, Express inside, loads on the first admin call and keeps an entry of its own.
      expect((await fetch(`${new URL(`${url}`).origin}/__admin/health`)).status).toBe(200);
      await vi.waitFor(() => expect(readdirSync(cache).filter((name) => name.startsWith('cli-admin-api.js-'))).toHaveLength(1), { timeout: 10_000 });
    } finally {
      r.child.kill('SIGTERM');
      await r.exited;
    }
    // The next start runs the admin part from that entry.
    const again = run(join(dir, 'node_modules', '.bin', 'petstore-mock'), ['--port', '0'], { cwd: dir });
    try {
      const [, url] = await waitFor(again, /(http:\/\/127\.0\.0\.1:\d+)\/v1/);
      const scenario = await fetch(`${url}/__admin/scenario`);
      expect(scenario.status).toBe(200);
      expect(((await scenario.json()) as { name: string }).name).toBe('default');
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
    const scenarios = execFileSync(join(dir, 'node_modules', '.bin', 'petstore-mock'), ['scenarios'], { cwd: dir, encoding: 'utf8' });
    expect(scenarios.split('\n')[0]).toMatch(/^default\s+The specification's behaviour/);
    expect(scenarios).toMatch(/^flaky\s+/m);

    // The README's snippets are ES modules: in this CommonJS project they are .mjs files.
    const snippets = runnableSnippets();
    expect(snippets.length).toBeGreaterThanOrEqual(3);
    expect(snippets.some((s) => s.includes("startMock({ scenario: 'ban' })"))).toBe(true);
    for (const [i, snippet] of snippets.entries()) {
      writeFileSync(join(dir, `snippet-${i + 1}.mjs`), snippet);
      const ran = spawnSync(process.execPath, [`snippet-${i + 1}.mjs`], { cwd: dir, env, encoding: 'utf8', timeout: 30_000 });
      expect({ snippet: i + 1, status: ran.status, stderr: ran.stderr }).toEqual({ snippet: i + 1, status: 0, stderr: '' });
    }

    // And CommonJS code can require it, as docs/recipes.md says.
    writeFileSync(
      join(dir, 'use.cjs'),
      "const { startMock } = require('petstore-mock');\nstartMock().then(async (m) => { console.log(m.url.startsWith('http://127.0.0.1:')); await m.close(); });\n",
    );
    const cjs = spawnSync(process.execPath, ['use.cjs'], { cwd: dir, env, encoding: 'utf8' });
    expect({ out: cjs.stdout.trim(), err: cjs.stderr }).toEqual({ out: 'true', err: '' });
  }, 120_000);

  // npx runs the bin through a shell (npm → sh -c → node): a signal to npx alone must not leave
  // the server holding its port, and Ctrl-C (SIGINT to the terminal's whole process group) stops it.
  it.runIf(process.platform !== 'win32').each([
    ['SIGTERM to npx', 'SIGTERM', false],
    ['SIGHUP to npx', 'SIGHUP', false],
    ['Ctrl-C (SIGINT to the process group)', 'SIGINT', true],
  ] as const)(
    '%s stops the server started by `npx petstore-mock`',
    async (_what, signal, group) => {
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
    },
    90_000,
  );
});
