// The worker-pool recipes of docs/recipes.md, run as printed: vitest and Jest workers connect to
// the one mock of their global setup with connectMock, each in a session of its own; pytest
// drives one mock over HTTP, each test in its own session. One throwaway project per runner,
// linked to this repository's build (no packing, no download).
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, userProject } from './project.js';

const exec = promisify(execFile);
const recipes = readFileSync(join(ROOT, 'docs/recipes.md'), 'utf8');
const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

async function sh(file: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await exec(file, args, {
      cwd,
      env: { ...process.env, NO_COLOR: '1', VITEST: '', VITEST_POOL_ID: '', VITEST_WORKER_ID: '' },
      timeout: 90_000,
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const PYTHON = '/usr/bin/python3';
const pythonReady = await sh(PYTHON, ['-c', 'import pytest, requests'], ROOT).then((r) => r.code === 0);
const inCi = process.env.CI === 'true';

const VITEST = ['global-setup.ts', 'vitest.config.mts', 'session.ts', 'rate-limit.spec.ts', 'create.spec.ts'];
const JEST = ['jest.config.js', 'global-setup.js', 'global-teardown.js', 'session.js', 'rate-limit.spec.js', 'create.spec.js'];
const PYTEST = ['conftest.py', 'test_sessions.py'];

/** The project's files: each recipe file under `folder`, copied from test/recipes/<recipe>/. */
const layout = (recipe: string, names: string[], folder: string): Record<string, string> =>
  Object.fromEntries(names.map((n) => [folder === '' ? n : `${folder}/${n}`, `test/recipes/${recipe}/${n}`]));

describe('the worker-pool recipes of docs/recipes.md', () => {
  it.each([...VITEST.map((n) => `vitest-pool/${n}`), ...JEST.map((n) => `jest-pool/${n}`), ...PYTEST.map((n) => `pytest-pool/${n}`)])(
    'docs/recipes.md prints test/recipes/%s verbatim',
    (file) => {
      expect(recipes).toContain(`\n${readFileSync(join(ROOT, 'test/recipes', file), 'utf8')}\`\`\`\n`);
    },
  );

  it("the README prints the vitest worker's session.ts verbatim", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`\n${readFileSync(join(ROOT, 'test/recipes/vitest-pool/session.ts'), 'utf8')}\`\`\`\n`);
  });

  it('vitest: globalSetup starts one mock; two test files in forked workers connect to it, each in its own session', async () => {
    const dir = userProject(layout('vitest-pool', VITEST, 'test/pool'), ['vitest'], 'commonjs');
    projects.push(dir);
    expect(recipes).toContain('npx vitest run --root test/pool');
    const { code, out } = await sh(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--root', 'test/pool'], dir);
    expect(out).toMatch(/Test Files\s+2 passed \(2\)/);
    expect(code).toBe(0);
  }, 90_000);

  it('Jest (CommonJS): globalSetup starts one mock; two workers require connectMock and take their own sessions', async () => {
    const dir = userProject(layout('jest-pool', JEST, 'test/jest-pool'), ['jest'], 'commonjs');
    projects.push(dir);
    expect(recipes).toContain('npx jest -c test/jest-pool/jest.config.js');
    const { code, out } = await sh(process.execPath, ['node_modules/jest/bin/jest.js', '-c', 'test/jest-pool/jest.config.js'], dir);
    expect(out).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(code).toBe(0);
  }, 90_000);

  it.skipIf(!pythonReady && !inCi)(
    'pytest: one mock over HTTP, each test in its own session, clock and scenario by the admin API',
    async () => {
      expect(pythonReady, 'the pytest recipe needs Debian python3-pytest and python3-requests').toBe(true);
      const dir = userProject(layout('pytest-pool', PYTEST, ''));
      projects.push(dir);
      const { code, out } = await sh(PYTHON, ['-m', 'pytest', '-p', 'no:cacheprovider', '-q'], dir);
      expect(out).toMatch(/^3 passed in /m);
      expect(code).toBe(0);
    },
    90_000,
  );
});
