import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { ROOT } from './project.js';

const exec = promisify(execFile);
const recipes = readFileSync(join(ROOT, 'docs/recipes.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'petstore-portman-'));
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface NewmanReport {
  run: {
    stats: { requests: { total: number; failed: number }; assertions: { total: number; failed: number } };
    executions: { request: { method: string; url: { path: string[] } }; response: { code: number } }[];
  };
}

describe('the Portman and Newman recipe of docs/recipes.md', () => {
  it('prints portman-config.json verbatim', () => {
    expect(recipes).toContain(`\n${readFileSync(join(ROOT, 'test/recipes/portman/portman-config.json'), 'utf8')}\`\`\`\n`);
  });

  it("Portman's contract tests of the served document, run by Newman against the mock, all pass; getPet is called with the petId example", async () => {
    // As printed, npx installs both packages when the project has neither; this project has them,
    // so the same arguments go to the installed bin (npx would spend seconds on the registry).
    const command = /^npx --yes -p @apideck\/portman@1\.33 -p tslib@2 portman (.+)$/m.exec(recipes)?.[1];
    expect(command).toBeDefined();
    const args = (command ?? '')
      .replaceAll('http://127.0.0.1:4010', mock.origin)
      .replace('portman-config.json', join(ROOT, 'test/recipes/portman/portman-config.json'))
      .split(' ');
    const report = join(dir, 'newman.json');
    const options = JSON.stringify({ reporters: ['json'], reporter: { json: { export: report } } });
    await exec(join(ROOT, 'node_modules/.bin/portman'), [...args, '--newmanRunOptions', options], {
      cwd: dir,
      timeout: 90_000,
      env: { ...process.env, NO_COLOR: '1' },
    });
    const { run } = JSON.parse(readFileSync(report, 'utf8')) as NewmanReport;
    expect(run.executions.map((e) => `${e.request.method} /${e.request.url.path.join('/')} ${e.response.code}`)).toEqual([
      'GET /v1/pets 200',
      'POST /v1/pets 201',
      'GET /v1/pets/1 200',
    ]);
    expect(recipes).toContain(`runs ${run.stats.requests.total} requests with ${run.stats.assertions.total} assertions, all passing`);
    expect(run.stats.assertions.failed).toBe(0);
    expect(run.stats.requests.failed).toBe(0);
  }, 120_000);
});
