import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, adminToken: 'qa-secret-token' });
});
afterAll(async () => {
  await mock?.close();
});

describe("the admin page's chart script", () => {
  it('is served to the page without the admin token (it holds no data); the data it reads still needs the token', async () => {
    const res = await fetch(`${mock.origin}/__admin/limits-chart.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await res.text()).toContain('petstoreLimitsChart');
    expect((await fetch(`${mock.origin}/__admin/keys`)).status).toBe(401);
  });

  it('is bundled apart: neither the library (ESM or CommonJS) nor the CLI and its chunks carry the charting library', () => {
    const files = [
      'dist/index.js',
      'dist/cli.js',
      'dist/cjs/index.js',
      ...readdirSync('dist/chunks')
        .filter((f) => f.endsWith('.js'))
        .map((f) => join('dist/chunks', f)),
    ];
    for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toMatch(/uplot/i);
    expect(readFileSync('dist/admin-chart.js', 'utf8')).toMatch(/uplot/i);
  });
});
