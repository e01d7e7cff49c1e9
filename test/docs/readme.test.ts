import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/core/errors.js';
import { PLAN_LIMITS } from '../../src/core/state/plans.js';
import { DEFAULT_PET_COUNT } from '../../src/core/state/seed.js';
import { limitOf, minuteDay, MINUTE_MS, DAY_MS } from '../../src/core/state/windows.js';
import type { Limits } from '../../src/core/types.js';
const perMinute = (l: Limits): number => limitOf(l, MINUTE_MS) ?? NaN;
const perDay = (l: Limits): number => limitOf(l, DAY_MS) ?? NaN;

const doc = (file: string): string => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const readme = doc('README.md');

describe('README', () => {
  it('gives the two set-up commands', () => {
    expect(readme).toContain('```sh\nnpm install && npx petstore-mock\n```');
    expect(readme).toContain('```sh\nnpm test\n```');
  });

  it('lists every shipped scenario with its own description, and no other', async () => {
    const { shippedScenarios } = await import('../../src/files/scenario-files.js');
    const section = readme.slice(readme.indexOf('## QA: scenarios and the admin page'), readme.indexOf('A walk-through of a ban'));
    const rows = [...section.matchAll(/^\| `([a-z0-9-]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(expect.arrayContaining(shippedScenarios().map((s) => [s.name, s.description])));
    expect(rows).toHaveLength(shippedScenarios().length);
  });

  it('copies no figure from docs/benchmarks.md, which the benchmarks regenerate (it links there instead)', () => {
    const figures = new Set([...doc('docs/benchmarks.md').matchAll(/\| ([\d.,]+ ?(?:%|×|MB|ms))(?= |\|)/g)].map((m) => m[1]));
    expect(figures.size).toBeGreaterThan(5);
    for (const figure of figures) expect(readme, figure).not.toContain(figure);
    expect(readme).toContain('(docs/benchmarks.md)');
  });

  it('states the default store size where it describes the data and next to --pets in docs/cli.md', () => {
    expect(readme).toContain(`**Data**: ${DEFAULT_PET_COUNT} seeded animals (\`--pets N\``);
    expect(doc('docs/cli.md')).toMatch(new RegExp(`^\\| \`--pets\` \\| number \\| \`${DEFAULT_PET_COUNT}\` \\| .+ \\|$`, 'm'));
  });
});

describe('the flags and keys the documentation gives', () => {
  const flagsOf = (text: string): string[] => [...text.matchAll(/^\| `(--[a-z-]+)/gm)].map((m) => m[1]!);
  const reference = doc('docs/reference.md');

  it('docs/cli.md documents every option of the CLI, and the README only options the CLI has', () => {
    const help = execFileSync(process.execPath, ['dist/cli.js', '--help'], { encoding: 'utf8' });
    const options = [...help.matchAll(/^\s+(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]!).filter((f) => f !== '--help' && f !== '--version');
    expect(options.length).toBeGreaterThan(5);
    const cli = doc('docs/cli.md');
    expect(new Set(flagsOf(cli.slice(cli.indexOf('## Flags'), cli.indexOf('### Mistakes'))))).toEqual(new Set(options));
    for (const flag of flagsOf(readme)) expect(options, flag).toContain(flag);
  });

  it.each([
    ['README.md', readme],
    ['docs/reference.md', reference],
  ])("%s gives each demo key with its plan's limits", (_file, text) => {
    const rows = [...text.matchAll(/^\| `demo-([a-z]+)` \| \w+ \| ([\d,]+) \| ([\d,]+) \|$/gm)].map((m) => [
      m[1],
      Number(m[2]!.replace(/,/g, '')),
      Number(m[3]!.replace(/,/g, '')),
    ]);
    expect(rows).toEqual(Object.entries(PLAN_LIMITS).map(([plan, l]) => [plan, perMinute(l), perDay(l)]));
  });
});

describe('docs/errors.md', () => {
  it('lists every error code of the catalogue with its status, and no other', () => {
    const rows = [...doc('docs/errors.md').matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([code, v]) => [code, v.status])));
    expect(rows).toHaveLength(Object.keys(ERROR_CATALOGUE).length);
  });
});

describe('docs/scenarios.md', () => {
  it('shows a scenario example that loads as it is printed', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { ScenarioSource } = await import('../../src/files/scenario-files.js');
    const { defaultSettings } = await import('../../src/core/state/session-settings.js');
    const { BaseData } = await import('../../src/core/state/base-data.js');
    const example = /## Writing one[\s\S]*?```yaml\n([\s\S]*?)```/.exec(doc('docs/scenarios.md'))?.[1] ?? '';
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-readme-')), 'checkout-outage.yaml');
    writeFileSync(file, example);
    const settings = ScenarioSource.read(file).settings({ settings: defaultSettings(new BaseData([])), baseFor: () => new BaseData([]) });
    expect(settings.scenario).toBe('checkout-outage');
    expect(settings.keys.find((k) => k.key === 'qa-key')?.limits).toEqual(minuteDay(3, 10_000));
  });

  it('shows a usage example that presets the second and the hour as it says', async () => {
    const { ScenarioSpecError, compileScenario } = await import('../../src/core/scenarios/scenario-compiler.js');
    const { defaultSettings } = await import('../../src/core/state/session-settings.js');
    const { BaseData } = await import('../../src/core/state/base-data.js');
    const { parse } = await import('yaml');
    const example = /\*\*Usage\.\*\*[\s\S]*?```yaml\n([\s\S]*?)```/.exec(doc('docs/scenarios.md'))?.[1] ?? '';
    const spec = parse(example) as Parameters<typeof compileScenario>[0];
    const base = new BaseData([]);
    const settings = compileScenario(spec, 'example', { defaults: defaultSettings(base), data: () => base });
    expect(settings.usage).toEqual([
      {
        key: 'burst-key',
        counts: [
          { lengthMs: 1_000, count: 10 },
          { lengthMs: 60_000, count: 0 },
          { lengthMs: 3_600_000, count: 4990 },
          { lengthMs: 86_400_000, count: 0 },
        ],
        bannedForMs: undefined,
      },
    ]);
    // The refusal the page quotes is the one given.
    const quoted = /\*\*Usage\.\*\*[\s\S]*?refused \(`([^`]*)`\)/.exec(doc('docs/scenarios.md'))?.[1]?.replace(/\s+/g, ' ');
    expect(() =>
      compileScenario({ description: 'x', usage: [{ key: 'demo-free', hour: 'full' }] }, 'x', { defaults: defaultSettings(base), data: () => base }),
    ).toThrow(new ScenarioSpecError(['usage', 0, 'hour'], quoted ?? 'no quote'));
  });
});
