import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/core/errors.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('lists every error code of the catalogue with its status, and no other', () => {
    const rows = [...readme.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([code, v]) => [code, v.status])));
  });

  it('gives the two set-up commands', () => {
    expect(readme).toContain('npm install && npx petstore-mock');
    expect(readme).toContain('npm test');
  });
});

describe('README scenarios', () => {
  it('lists every shipped scenario with its own description, and no other', async () => {
    const { shippedScenarios } = await import('../../src/files/scenario-files.js');
    const section = readme.slice(readme.indexOf('### Shipped scenarios'), readme.indexOf('### Writing one'));
    const rows = [...section.matchAll(/^\| `([a-z0-9-]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(expect.arrayContaining(shippedScenarios().map((s) => [s.name, s.description])));
    expect(rows).toHaveLength(shippedScenarios().length);
  });

  it('shows a scenario example that loads as it is printed', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { ScenarioSource } = await import('../../src/files/scenario-files.js');
    const { defaultSettings } = await import('../../src/core/state/world-settings.js');
    const { BaseData } = await import('../../src/core/state/store.js');
    const example = /### Writing one[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-readme-')), 'checkout-outage.yaml');
    writeFileSync(file, example);
    const settings = ScenarioSource.read(file).settings({ defaults: defaultSettings(new BaseData([])), baseFor: () => new BaseData([]) });
    expect(settings.scenario).toBe('checkout-outage');
    expect(settings.keys.find((k) => k.key === 'qa-key')?.limits).toEqual({ perMinute: 3, perDay: 10_000 });
  });
});
