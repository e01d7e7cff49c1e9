import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The Jest recipe of docs/recipes.md, run by real Jest in projects that installed the packed
// tarball: a CommonJS project as `npm init -y` makes it, and a TypeScript one with ts-jest.
const dir = mkdtempSync(join(tmpdir(), 'petstore-jest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** The project's dev tools, linked from this repository's node_modules rather than downloaded. */
const TOOLS = ['jest', 'ts-jest', 'typescript', '@jest/globals', '@types/node'];

function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|JEST_|VITEST)/i.test(name)));
  writeFileSync(join(dir, '.npmrc-empty'), '');
  return { ...env, NO_COLOR: '1', CI: 'true', npm_config_userconfig: join(dir, '.npmrc-empty') };
}

beforeAll(() => {
  const env = userEnv();
  const tarball = execFileSync(npm, ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir], { cwd: resolve('.'), encoding: 'utf8', env })
    .trim()
    .split('\n')
    .pop() as string;
  execFileSync(npm, ['init', '-y'], { cwd: dir, env, stdio: 'pipe' });
  const install = spawnSync(npm, ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball)], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  expect(install.status, install.stderr).toBe(0);
  for (const tool of TOOLS) {
    mkdirSync(join(dir, 'node_modules', tool, '..'), { recursive: true });
    symlinkSync(resolve('node_modules', tool), join(dir, 'node_modules', tool), 'dir');
  }
}, 120_000);

/** Copies a recipe folder into the project and runs Jest there, as `npx jest` would. */
function jest(recipe: string, args: string[] = []): { status: number | null; out: string } {
  const project = join(dir, recipe);
  cpSync(resolve('test/recipes', recipe), project, { recursive: true });
  const ran = spawnSync(process.execPath, [join(dir, 'node_modules/jest/bin/jest.js'), ...args], {
    cwd: project,
    env: userEnv(),
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { status: ran.status, out: `${ran.stdout}${ran.stderr}` };
}

describe('the Jest recipe with the packed package', () => {
  it('CommonJS (npm init -y): require() loads the library, globalSetup/globalTeardown share one mock, a test file starts its own on a virtual clock, and Jest exits by itself', () => {
    expect((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: string }).type ?? 'commonjs').toBe('commonjs');
    // --detectOpenHandles: a handle left open by close() would be listed, and would keep Jest from exiting.
    const { status, out } = jest('jest', ['--detectOpenHandles']);
    expect(out).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(out).not.toMatch(/open handle|did not exit|Must use import/i);
    expect(status).toBe(0);
  }, 120_000);

  it('TypeScript with ts-jest: tsc type-checks the recipe against the `require` types, and Jest runs it', () => {
    const project = join(dir, 'jest-ts');
    const run = jest('jest-ts');
    expect(run.out).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(run.status).toBe(0);
    const tsc = spawnSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', '.', '--listFiles'], { cwd: project, encoding: 'utf8' });
    const files = tsc.stdout.split('\n');
    expect(files).toContain(join(dir, 'node_modules/petstore-mock/dist/cjs/index.d.ts'));
    expect(files).not.toContain(join(dir, 'node_modules/petstore-mock/dist/index.d.ts'));
    expect(
      tsc.status,
      tsc.stdout
        .split('\n')
        .filter((l) => l.includes('error TS'))
        .join('\n'),
    ).toBe(0);
  }, 120_000);

  it('the Jest snippet of docs/audit.md runs as printed against an SDK that waits Retry-After', () => {
    const snippet = /With Jest[^\n]*\n\n```js\n([\s\S]*?)```/.exec(readFileSync('docs/audit.md', 'utf8'))?.[1];
    expect(snippet).toContain("require('petstore-mock')");
    const project = join(dir, 'audit-recipe');
    mkdirSync(join(project, 'test'), { recursive: true });
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{ "name": "audit-recipe", "private": true }\n');
    writeFileSync(join(project, 'test', 'sdk.test.js'), snippet ?? '');
    // The SDK of the recipe, as the doc's TypeScript client reads in CommonJS.
    writeFileSync(
      join(project, 'src', 'client.js'),
      [
        'exports.createClient = (options) => ({',
        '  async listPets(query = {}) {',
        '    for (let attempt = 0; ; attempt++) {',
        '      const res = await fetch(`${options.baseUrl}/pets?limit=${query.limit ?? 20}`, { headers: { authorization: `Bearer ${options.apiKey}` } });',
        '      if (res.status === 429 && attempt < (options.maxRetries ?? 3)) {',
        '        await res.arrayBuffer();',
        "        const wait = Number(res.headers.get('retry-after')) * 1000 * 2 ** attempt;",
        '        await new Promise((resolve) => setTimeout(resolve, wait));',
        '        continue;',
        '      }',
        '      if (!res.ok) throw new Error(`listPets answered ${res.status}`);',
        '      return res.json();',
        '    }',
        '  },',
        '});',
        '',
      ].join('\n'),
    );
    const ran = spawnSync(process.execPath, [join(dir, 'node_modules/jest/bin/jest.js'), '--detectOpenHandles'], {
      cwd: project,
      env: userEnv(),
      encoding: 'utf8',
      timeout: 90_000,
    });
    const out = `${ran.stdout}${ran.stderr}`;
    expect(out).toMatch(/Tests:\s+1 passed, 1 total/);
    expect(ran.status, out).toBe(0);
  }, 120_000);
});
