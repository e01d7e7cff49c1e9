import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, userProject } from './project.js';

const exec = promisify(execFile);
const doc = readFileSync(join(ROOT, 'docs/audit.md'), 'utf8');
const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

describe('the SDK test recipe of docs/audit.md', () => {
  it.each(['test/recipes/audit/test/sdk.spec.ts', 'test/recipes/audit/src/client.ts'])('docs/audit.md prints %s verbatim', (file) => {
    expect(doc).toContain(`\n${readFileSync(join(ROOT, file), 'utf8')}\`\`\`\n`);
  });

  it('runs in a project of its own with vitest: the SDK waits Retry-After and the audit finds nothing', async () => {
    const dir = userProject({ 'test/sdk.spec.ts': 'test/recipes/audit/test/sdk.spec.ts', 'src/client.ts': 'test/recipes/audit/src/client.ts' }, ['vitest']);
    projects.push(dir);
    const { stdout } = await exec(process.execPath, ['node_modules/vitest/vitest.mjs', 'run'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 60_000,
    });
    expect(stdout).toMatch(/Tests\s+1 passed \(1\)/);
  }, 90_000);

  it('the Jest version is the vitest one in CommonJS, line for line', () => {
    const jest = /With Jest[^\n]*\n\n```js\n([^`]+)```/.exec(doc)?.[1];
    expect(jest).toContain("const { startMock } = require('petstore-mock');");
    for (const line of ["keys: ['sdk-key:free:1:1000']", "mock.clock.set('2030-01-01T12:00:59.500Z');", 'mock.expectWellBehaved({ warnings: true });'])
      expect(jest).toContain(line);
  });
});
