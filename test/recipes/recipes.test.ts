import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, userProject } from './project.js';
import { at } from '../support/checked.js';
import { freePort } from '../support/ports.js';

const exec = promisify(execFile);
const recipes = readFileSync(join(ROOT, 'docs/recipes.md'), 'utf8');
const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) {
    // A failed run can leave the workflow's background server behind: stop it by its pid file.
    const pidFile = join(dir, 'petstore-mock.pid');
    if (existsSync(pidFile)) {
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return false;
  } catch {
    return true;
  }
}

/** Runs a command, resolving with its output and exit code instead of throwing on failure. */
async function sh(file: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<{ code: number; out: string }> {
  // A CI step's shell, not npm's: without the npm_* variables `npm test` hands down, a mock started
  // in the background outlives its step, as it does in a real job (under npm it stops with npm).
  const shell = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  try {
    const { stdout, stderr } = await exec(file, args, { cwd: options.cwd, env: { ...shell, NO_COLOR: '1', ...options.env }, timeout: 90_000 });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** Debian's python3 (not a pyenv one on PATH), and whether it has what the pytest recipe needs. */
const PYTHON = '/usr/bin/python3';
const pythonReady = await sh(PYTHON, ['-c', 'import pytest, requests'], { cwd: ROOT }).then((r) => r.code === 0);
const inCi = process.env.CI === 'true';
if (!pythonReady && !inCi) {
  console.warn(
    'petstore-mock tests: skipping the pytest recipe: /usr/bin/python3 lacks pytest or requests; install them with "sudo apt-get install python3-pytest python3-requests" (npm test does it when run as root).',
  );
}

describe('the recipes of docs/recipes.md', () => {
  it.each([
    'test/recipes/vitest/global-setup.ts',
    'test/recipes/vitest/vitest.config.mts',
    'test/recipes/vitest/pets.spec.ts',
    'test/recipes/playwright/playwright.config.ts',
    'test/recipes/github-actions.yml',
    'test/recipes/jest/jest.config.js',
    'test/recipes/jest/global-setup.js',
    'test/recipes/jest/global-teardown.js',
    'test/recipes/jest/pets.spec.js',
    'test/recipes/jest-ts/jest.config.js',
    'test/recipes/jest-ts/tsconfig.json',
    'test/recipes/jest-ts/global-setup.ts',
    'test/recipes/jest-ts/global-teardown.ts',
    'test/recipes/jest-ts/pets.spec.ts',
  ])('docs/recipes.md prints %s verbatim', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(recipes).toContain(`\n${text}\`\`\`\n`);
  });

  it.each(['test/recipes/pytest/conftest.py', 'test/recipes/pytest/test_pets.py'])('docs/client-details.md prints %s verbatim', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(readFileSync(join(ROOT, 'docs/client-details.md'), 'utf8')).toContain(`\n${text}\`\`\`\n`);
  });

  it('vitest globalSetup: a nested vitest run starts the mock, provides its URL and closes it', async () => {
    const { code, out } = await sh(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--root', 'test/recipes/vitest'], { cwd: ROOT });
    expect(out).toMatch(/Tests\s+1 passed \(1\)/);
    expect(code).toBe(0);
  });

  it('Playwright webServer: @playwright/test starts `npx petstore-mock`, waits for the url, runs in chromium, stops it', async () => {
    expect(existsSync('/usr/bin/chromium'), 'this test needs Debian chromium: apt-get install -y chromium').toBe(true);
    const dir = userProject(
      { 'playwright.config.ts': 'test/recipes/playwright/playwright.config.ts', 'pets.spec.ts': 'test/recipes/playwright/pets.spec.ts' },
      ['@playwright/test'],
    );
    projects.push(dir);
    const port = await freePort();
    const { code, out } = await sh(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '--reporter=line'], {
      cwd: dir,
      env: { PETSTORE_PORT: String(port) },
    });
    expect(out).toContain('2 passed');
    expect(code).toBe(0);
    expect(await refused(`http://127.0.0.1:${port}/__admin/health`)).toBe(true);
  }, 90_000);

  it('both runners in one CommonJS project (npm init -y), each in its folder with its config, run their own specs only', async () => {
    expect(existsSync('/usr/bin/chromium'), 'this test needs Debian chromium: apt-get install -y chromium').toBe(true);
    const dir = userProject(
      {
        'test/unit/global-setup.ts': 'test/recipes/vitest/global-setup.ts',
        'test/unit/vitest.config.mts': 'test/recipes/vitest/vitest.config.mts',
        'test/unit/pets.spec.ts': 'test/recipes/vitest/pets.spec.ts',
        'test/e2e/playwright.config.ts': 'test/recipes/playwright/playwright.config.ts',
        'test/e2e/pets.spec.ts': 'test/recipes/playwright/pets.spec.ts',
      },
      ['vitest', '@playwright/test'],
      'commonjs',
    );
    projects.push(dir);
    // The commands docs/recipes.md gives, from the project's root.
    expect(recipes).toContain('npx vitest run --root test/unit');
    expect(recipes).toContain('npx playwright test -c test/e2e');
    const unit = await sh(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--root', 'test/unit'], { cwd: dir });
    expect(unit.out).toMatch(/Test Files\s+1 passed \(1\)/);
    expect(unit.out).toMatch(/Tests\s+1 passed \(1\)/);
    expect(unit.out).not.toMatch(/warning|CommonJS/i);
    expect(unit.code).toBe(0);
    const port = await freePort();
    const e2e = await sh(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'test/e2e', '--reporter=line'], {
      cwd: dir,
      env: { PETSTORE_PORT: String(port) },
    });
    expect(e2e.out).toContain('2 passed');
    expect(e2e.out).not.toContain('test/unit');
    expect(e2e.code).toBe(0);
  }, 120_000);

  // Run wherever Debian's packages are there (npm test installs them as root), and always in CI.
  it.skipIf(!pythonReady && !inCi)(
    'pytest: the conftest fixture starts `npx petstore-mock` with --ready-json, the tests use requests, it stops the mock',
    async () => {
      expect(pythonReady, 'the pytest recipe needs Debian python3-pytest and python3-requests: apt-get install -y python3-pytest python3-requests').toBe(true);
      const dir = userProject({ 'conftest.py': 'test/recipes/pytest/conftest.py', 'test_pets.py': 'test/recipes/pytest/test_pets.py' });
      projects.push(dir);
      const { code, out } = await sh(PYTHON, ['-m', 'pytest', '-p', 'no:cacheprovider', '-q'], { cwd: dir });
      expect(out).toMatch(/^3 passed in /m);
      expect(code).toBe(0);
      // The fixture stopped the mock it started: no petstore-mock is left running from this folder.
      const left = async (): Promise<string> => (await sh('pgrep', ['-f', `${dir}/node_modules/.bin/petstore-mock`], { cwd: ROOT })).out.trim();
      await expect.poll(left, { timeout: 5000 }).toBe('');
    },
    90_000,
  );

  it('GitHub Actions: the start step serves on $PETSTORE_PORT with a JSON ready line, the stop step ends it', async () => {
    type Step = { name?: string; run?: string; env?: Record<string, string> };
    const workflow = parse(readFileSync(join(ROOT, 'test/recipes/github-actions.yml'), 'utf8')) as {
      jobs: { test: { env: Record<string, unknown>; steps: Step[] } };
    };
    const job = workflow.jobs.test;
    expect(job.env.PETSTORE_PORT).toBe(4010);
    const step = (name: string): string => {
      const found = job.steps.find((s) => s.name === name)?.run;
      if (!found) throw new Error(`no step ${name}`);
      return found;
    };
    expect(job.steps.find((s) => s.run === 'npm test')?.env?.PETSTORE_URL).toBe('http://127.0.0.1:${{ env.PETSTORE_PORT }}/v1');

    const dir = userProject({});
    projects.push(dir);
    const port = await freePort();
    const env = { PETSTORE_PORT: String(port) };
    const started = await sh('bash', ['-e', '-c', step('Start petstore-mock')], { cwd: dir, env });
    expect(started.out).toContain('"status":"ok"');
    expect(started.code).toBe(0);
    const res = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=2`, { headers: { authorization: 'Bearer demo-free' } });
    expect(res.status).toBe(200);
    const stopped = await sh('bash', ['-e', '-c', step('Stop petstore-mock and show its log')], { cwd: dir, env });
    expect(stopped.code).toBe(0);
    const lines = stopped.out.split('\n').filter((l) => l.startsWith('{'));
    expect(JSON.parse(at(lines, 0))).toMatchObject({ event: 'ready', url: `http://127.0.0.1:${port}/v1` });
    expect(lines.map((l) => JSON.parse(l) as { path?: string; status?: number }).filter((e) => e.path === '/v1/pets')).toMatchObject([{ status: 200 }]);
    await expect.poll(() => refused(`http://127.0.0.1:${port}/__admin/health`), { timeout: 5000 }).toBe(true);
  });
});
