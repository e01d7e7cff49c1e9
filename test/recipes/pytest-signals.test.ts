import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { userProject } from './project.js';

// The pytest recipe's fixture stops the mock whatever stops pytest: a CI timeout's SIGTERM, a
// closed terminal's SIGHUP, Ctrl-C's SIGINT. Each is sent to pytest alone, while a test runs.
const PYTHON = '/usr/bin/python3';
const projects: string[] = [];
const pids: number[] = [];
afterAll(() => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return false;
  } catch {
    return true;
  }
}

describe('the pytest recipe when pytest is stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)(
    '%s to pytest stops the mock the fixture started',
    async (signal) => {
      expect(existsSync(PYTHON), 'the pytest recipe needs Debian python3-pytest and python3-requests').toBe(true);
      const dir = userProject({ 'conftest.py': 'test/recipes/pytest/conftest.py', 'test_waits.py': 'test/recipes/pytest-signals/test_waits.py' });
      projects.push(dir);
      const pytest = spawn(PYTHON, ['-m', 'pytest', '-p', 'no:cacheprovider', '-q'], { cwd: dir, stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => pytest.on('exit', (code, sig) => resolve(code ?? (sig ? -1 : null))));
      const readyFile = join(dir, 'ready.json');
      await expect.poll(() => existsSync(readyFile) && readFileSync(readyFile, 'utf8').endsWith('}'), { timeout: 30_000 }).toBe(true);
      const ready = JSON.parse(readFileSync(readyFile, 'utf8')) as { pid: number; origin: string };
      pids.push(ready.pid);
      expect(alive(ready.pid)).toBe(true);
      pytest.kill(signal);
      await exited;
      await expect.poll(() => alive(ready.pid), { timeout: 5000 }).toBe(false);
      expect(await refused(`${ready.origin}/__admin/health`)).toBe(true);
    },
    60_000,
  );
});
