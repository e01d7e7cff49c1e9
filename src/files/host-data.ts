import { readFileSync } from 'node:fs';
import { FixtureError, checkPets, parseFixtures, readFailure } from '../core/input/fixtures.js';
import { parseKeySpec } from '../core/state/plans.js';
import { DEFAULT_PET_COUNT, DEFAULT_SEED } from '../core/state/seed.js';
import { buildBaseData, defaultSettings, type DataOptions } from '../core/state/world-settings.js';
import type { BaseData } from '../core/state/store.js';
import type { WorldSettings } from '../core/state/world.js';
import type { KeyConfig, Pet } from '../core/types.js';
import type { ScenarioHost } from './scenario-files.js';

/** What the command line (or the library's options) says about data and keys. */
export interface HostOptions {
  seed?: number;
  pets?: number;
  fixtures?: string | readonly Pet[];
  keys?: readonly (string | KeyConfig)[];
}

/** The host's settings, with the fixtures file they came from, which can be read again. */
export interface LiveHost extends ScenarioHost {
  /** Counts the changes of `defaults`; settings compiled against an older version are stale. */
  readonly version: number;
  /** The `--fixtures` file, when one was named. */
  readonly file: string | undefined;
  /**
   * Reads the fixtures file again; new content gives new defaults and a new version. Throws
   * `FixtureError` for a file that cannot be used, and keeps the defaults it had.
   */
  refresh(): void;
}

function readFixturesText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new FixtureError(`cannot read the fixtures file ${file} (${readFailure(error)}); check the path given to --fixtures.`);
  }
}

/** Reads fixtures and keys into the settings before any scenario, with a cache of generated stores. */
export function prepareHost(options: HostOptions): LiveHost {
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
  const file = typeof options.fixtures === 'string' ? options.fixtures : undefined;
  let text = file === undefined ? undefined : readFixturesText(file);
  const settingsOf = (): WorldSettings => {
    if (file !== undefined) return defaultSettings(buildBaseData({ pets: parseFixtures(text as string, file) }), keys);
    if (options.fixtures) return defaultSettings(buildBaseData({ pets: checkPets(options.fixtures as readonly Pet[], 'the fixtures option') }), keys);
    return defaultSettings(baseFor({}), keys);
  };
  let defaults = settingsOf();
  let version = 0;
  return {
    get defaults() {
      return defaults;
    },
    get version() {
      return version;
    },
    file,
    baseFor,
    refresh() {
      if (file === undefined) return;
      const now = readFixturesText(file);
      if (now === text) return;
      const previous = text;
      text = now;
      try {
        defaults = settingsOf();
      } catch (error) {
        text = previous;
        throw error;
      }
      version++;
    },
  };
}
