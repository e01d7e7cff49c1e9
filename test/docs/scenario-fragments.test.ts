// Every scenario a page of the documentation prints, whole or as a fragment, loads as printed: a
// reader who copies one into a file gets a scenario, not a schema error.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BaseData } from '../../src/core/state/base-data.js';
import { defaultSettings } from '../../src/core/state/session-settings.js';
import { ScenarioSource } from '../../src/files/scenario-files.js';
import schema from '../../scenarios/scenario.schema.json' with { type: 'json' };

const ROOT = new URL('../../', import.meta.url).pathname;
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const SCENARIO_KEYS = new Set(Object.keys(schema.properties));
const dir = mkdtempSync(join(tmpdir(), 'petstore-doc-scenarios-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The YAML and JSON blocks of a page that are scenarios: objects whose keys are all a scenario's. */
function scenarioBlocks(page: string): { at: string; text: string }[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const found: { at: string; text: string }[] = [];
  for (const match of text.matchAll(/```(?:yaml|yml|json)\n([\s\S]*?)```/g)) {
    let value: unknown;
    try {
      value = parse(match[1] ?? '');
    } catch {
      continue; // an abridged document ("…"), not a file to copy
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const keys = Object.keys(value);
    if (keys.length === 0 || !keys.every((k) => SCENARIO_KEYS.has(k)) || keys.every((k) => k === 'name')) continue;
    found.push({ at: `${page}:${text.slice(0, match.index).split('\n').length}`, text: match[1] ?? '' });
  }
  return found;
}

const blocks = PAGES.flatMap(scenarioBlocks);

describe('the scenarios the documentation prints', () => {
  it('are found on the pages that teach scenarios', () => {
    const pages = new Set(blocks.map((b) => b.at.split(':')[0]));
    for (const page of ['docs/scenarios.md', 'docs/inspection.md', 'docs/verify.md']) expect(pages).toContain(page);
    expect(blocks.length).toBeGreaterThanOrEqual(5);
  });

  it.each(blocks.map((b) => [b.at, b.text]))('%s loads as printed', (at, text) => {
    const file = join(dir, `${at.replace(/[/:.]/g, '-')}.yaml`);
    writeFileSync(file, text);
    const base = new BaseData([]);
    expect(() => ScenarioSource.read(file).settings({ settings: defaultSettings(base), baseFor: () => new BaseData([]) })).not.toThrow();
  });
});
