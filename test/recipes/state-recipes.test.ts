// The recipes of docs/recipes.md that send a scenario and a snapshot to a running mock: a pytest
// module (with the conftest.py fixture of docs/client-details.md) and a plain curl script.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock } from '../../src/index.js';
import { ROOT, userProject } from './project.js';

const exec = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const recipes = readFileSync(join(ROOT, 'docs/recipes.md'), 'utf8');
const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

async function sh(file: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await exec(file, args, { cwd, env: { ...process.env, NO_COLOR: '1' }, timeout: 90_000 });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const pythonReady = await sh(PYTHON, ['-c', 'import pytest, requests'], ROOT).then((r) => r.code === 0);
const inCi = process.env.CI === 'true';
if (!pythonReady && !inCi) {
  console.warn(
    'petstore-mock tests: skipping the pytest state recipe: /usr/bin/python3 lacks pytest or requests; install them with "sudo apt-get install python3-pytest python3-requests".',
  );
}

describe('scenario and snapshot recipes', () => {
  it.each(['test/recipes/pytest-state/test_state.py', 'test/recipes/curl/upload.sh'])('docs/recipes.md prints %s verbatim', (file) => {
    expect(recipes).toContain(`\n${readFileSync(join(ROOT, file), 'utf8')}\`\`\`\n`);
  });

  it.skipIf(!pythonReady && !inCi)(
    'pytest: a scenario object, its mistakes by JSON pointer, a saved snapshot loaded into another session',
    async () => {
      const dir = userProject({ 'conftest.py': 'test/recipes/pytest/conftest.py', 'test_state.py': 'test/recipes/pytest-state/test_state.py' });
      projects.push(dir);
      const { code, out } = await sh(PYTHON, ['-m', 'pytest', '-p', 'no:cacheprovider', '-q'], dir);
      expect(out).toMatch(/^3 passed in /m);
      expect(code).toBe(0);
    },
    90_000,
  );

  it('curl: the script uploads a scenario, saves a snapshot and loads it into another session', async () => {
    const mock = await startMock();
    try {
      const dir = userProject({ 'upload.sh': 'test/recipes/curl/upload.sh' });
      projects.push(dir);
      const { code, out } = await sh('sh', ['upload.sh', mock.origin], dir);
      expect(out).toBe('503\n');
      expect(code).toBe(0);
      expect(existsSync(join(dir, 'snapshot.json'))).toBe(true);
      expect(JSON.parse(readFileSync(join(dir, 'snapshot.json'), 'utf8'))).toEqual(expect.objectContaining({ session: 'checkout', version: 1 }));
      expect(
        mock
          .session('checkout-copy')
          .requests()
          .map((e) => e.status),
      ).toEqual([503]);
    } finally {
      await mock.close();
    }
  });
});
