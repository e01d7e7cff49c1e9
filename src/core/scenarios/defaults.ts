import { checkPets } from '../input/fixtures.js';
import { parseKeySpec } from '../state/plans.js';
import { DEFAULT_PET_COUNT, DEFAULT_SEED } from '../state/seed.js';
import { buildBaseData, defaultSettings, type DataOptions } from '../state/session-settings.js';
import type { BaseData } from '../state/base-data.js';
import type { SessionSettings } from '../state/session-state.js';
import type { KeyConfig, Pet } from '../types.js';
import { ScenarioSpecError } from './scenario-compiler.js';
import type { DataSpec } from './scenario-spec.js';
import type { CompiledProfile } from './profile.js';
import { withProfile } from './profile-settings.js';

/** What a scenario needs from the server it is applied to. */
export interface ScenarioDefaults {
  /** The settings of the command line, before any scenario. */
  settings: SessionSettings;
  /** The store's animals for data options; missing seed or count mean the command line's. */
  baseFor(data: DataOptions): BaseData;
}

/** Data and keys before any scenario, once fixtures (if any) are read. */
export interface DefaultsInput {
  seed?: number;
  pets?: number;
  /** Animals to serve instead of generated ones. */
  fixtures?: readonly Pet[];
  keys?: readonly (string | KeyConfig)[];
  /** A deployment's profile, laid over the settings and inherited by every scenario. */
  profile?: CompiledProfile;
}

/**
 * How many generated stores are kept for reuse, the least recently used dropped first: each
 * `data.seed` a scenario object names would otherwise hold its store for the process's life.
 */
export const GENERATED_STORES_KEPT = 8;

/** The settings before any scenario, with a bounded cache of generated stores. */
export function createDefaults(options: DefaultsInput): ScenarioDefaults {
  const keys = (options.keys ?? []).map((k) => (typeof k === 'string' ? parseKeySpec(k) : k));
  const generated = new Map<string, BaseData>();
  const baseFor = (data: DataOptions): BaseData => {
    if (data.pets) return buildBaseData(data);
    // Switching scenarios or sessions must not regenerate (or duplicate) a large store.
    const id = `${data.seed ?? options.seed ?? DEFAULT_SEED}:${data.count ?? options.pets ?? DEFAULT_PET_COUNT}`;
    let base = generated.get(id);
    if (base) generated.delete(id);
    else base = buildBaseData({ seed: data.seed ?? options.seed, count: data.count ?? options.pets });
    // A Map keeps insertion order: set again, the store becomes the most recently used.
    generated.set(id, base);
    if (generated.size > GENERATED_STORES_KEPT) generated.delete(generated.keys().next().value as string);
    return base;
  };
  const base = options.fixtures ? buildBaseData({ pets: checkPets(options.fixtures, 'the fixtures option') }) : baseFor({});
  const settings = defaultSettings(base, keys);
  return { settings: options.profile ? withProfile(settings, options.profile) : settings, baseFor };
}

/**
 * A scenario's `data` where no file can be read (a scenario object sent over HTTP, the browser
 * build): an empty store, or animals generated from a seed and a count.
 */
export function dataWithoutFiles(defaults: ScenarioDefaults): (data: DataSpec) => BaseData {
  return (data) => {
    if (data.empty) {
      if (data.count !== undefined) throw new ScenarioSpecError(['data', 'empty'], 'data.empty cannot go with count; keep one of them');
      return defaults.baseFor({ pets: [] });
    }
    return defaults.baseFor({ seed: data.seed, count: data.count });
  };
}
