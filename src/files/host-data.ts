import { readFileSync } from 'node:fs';
import { FixtureError, checkPets, parseFixtures, readFailure } from '../core/input/fixtures.js';
import { parseKeySpec } from '../core/state/plans.js';
import { DEFAULT_PET_COUNT, DEFAULT_SEED } from '../core/state/seed.js';
import { buildBaseData, defaultSettings, type DataOptions } from '../core/state/world-settings.js';
import type { BaseData } from '../core/state/store.js';
import type { KeyConfig, Pet } from '../core/types.js';
import type { ScenarioHost } from './scenario-files.js';

/** What the command line (or the library's options) says about data and keys. */
export interface HostOptions {
  seed?: number;
  pets?: number;
  fixtures?: string | readonly Pet[];
  keys?: readonly (string | KeyConfig)[];
}

/** Reads fixtures and keys into the settings before any scenario, with a cache of generated stores. */
export function prepareHost(options: HostOptions): ScenarioHost {
  let pets: readonly Pet[] | undefined;
  if (typeof options.fixtures === 'string') {
    let text: string;
    try {
      text = readFileSync(options.fixtures, 'utf8');
    } catch (error) {
      throw new FixtureError(`petstore-mock: cannot read the fixtures file ${options.fixtures} (${readFailure(error)}); check the path given to --fixtures.`);
    }
    pets = parseFixtures(text, options.fixtures);
  } else if (options.fixtures) {
    pets = checkPets(options.fixtures, 'the fixtures option');
  }
  const keys = (options.keys ?? []).map((k) => (typeof k === 'string' ? parseKeySpec(k) : k));
  const generated = new Map<string, BaseData>();
  const baseFor = (data: DataOptions): BaseData => {
    if (data.pets) return buildBaseData(data);
    // Switching scenarios or sessions must not regenerate (or duplicate) a large store.
    const id = `${data.seed ?? options.seed ?? DEFAULT_SEED}:${data.count ?? options.pets ?? DEFAULT_PET_COUNT}`;
    let base = generated.get(id);
    if (!base) {
      base = buildBaseData({ seed: data.seed ?? options.seed, count: data.count ?? options.pets });
      generated.set(id, base);
    }
    return base;
  };
  const base = pets ? buildBaseData({ pets }) : baseFor({});
  return { defaults: defaultSettings(base, keys), baseFor };
}
