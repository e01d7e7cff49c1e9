import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock } from '../../src/index.js';

const doc = readFileSync(new URL('../../docs/inspection.md', import.meta.url), 'utf8');
/** The scenario file of "Scenario steps: key, header, forever and success answers", as printed. */
const beta = /## Scenario steps: key, header, forever and success answers[\s\S]*?```yaml\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';

const dir = mkdtempSync(join(tmpdir(), 'petstore-inspection-doc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("docs/inspection.md's beta-client scenario", () => {
  it('loads as printed: the beta client of demo-pro gets the fixed list, everyone and everything else the real store', async () => {
    expect(beta).toContain('X-Client: beta');
    const file = join(dir, 'beta.yaml');
    writeFileSync(file, beta);
    const mock = await startMock({ port: 0, scenario: file });
    try {
      const get = (path: string, headers: Record<string, string>) => fetch(`${mock.url}${path}`, { headers: { authorization: 'Bearer demo-pro', ...headers } });
      const fixed = await get('/pets', { 'x-client': 'beta' });
      expect(fixed.status).toBe(200);
      expect(await fixed.json()).toEqual([{ id: 7, name: 'Bonnie', categoryId: 2, status: 'sold' }]);
      const real = await get('/pets', {});
      expect(real.status).toBe(200);
      expect(((await real.json()) as unknown[]).length).toBeGreaterThan(1);
      const one = await get('/pets/1', { 'x-client': 'beta' });
      expect(one.status).toBe(200);
      expect(((await one.json()) as { id: number }).id).toBe(1);
      const created = await fetch(`${mock.url}/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-pro', 'x-client': 'beta', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
      expect(created.status).toBe(201);
    } finally {
      await mock.close();
    }
  });
});
