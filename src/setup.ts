import { readFileSync } from 'node:fs';
import { FixtureError, checkPets, parseFixtures, readFailure } from './core/fixtures.js';
import { parseKeySpec } from './core/plans.js';
import { ScenarioError, isScenarioName } from './core/scenario.js';
import { DEFAULT_PET_COUNT, DEFAULT_SEED } from './core/seed.js';
import { buildBaseData, defaultSettings, type DataOptions } from './core/settings.js';
import type { BaseData } from './core/store.js';
import type { KeyConfig, Pet } from './core/types.js';
import type { WorldSettings } from './core/world.js';
import { loadScenario, shippedScenarios, type ScenarioHost } from './scenarios.js';

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

interface Listed {
  name: string;
  description: string;
}

/**
 * The scenarios a server can switch to: the shipped ones, and the files it has loaded (from
 * `--scenario FILE` or the library), by name. A file is read again only when switched to, so
 * editing or deleting it during a run never breaks the listing the admin page polls.
 */
export class ScenarioCatalogue {
  private readonly files = new Map<string, Listed & { file: string }>();
  private shipped: Listed[] | undefined;

  constructor(private readonly host: ScenarioHost) {}

  /** The settings of the command line, before any scenario. */
  startSettings(): WorldSettings {
    return this.host.defaults;
  }

  /** The settings of a shipped scenario, a loaded one by name, or a file by path. */
  settings(nameOrFile: string): WorldSettings {
    const source = loadScenario(this.files.get(nameOrFile)?.file ?? nameOrFile);
    const settings = source.settings(this.host);
    // A file loaded once can be switched back to by its name, also over HTTP.
    if (!isScenarioName(nameOrFile)) this.files.set(source.name, { name: source.name, description: source.description, file: source.file });
    return settings;
  }

  /** Over HTTP only names are taken: the admin API does not read paths it is sent. */
  settingsByName(name: string): WorldSettings {
    if (!isScenarioName(name)) {
      throw new ScenarioError(`petstore-mock: the admin API switches scenarios by name, not ${JSON.stringify(name)}; load a file with --scenario FILE or the library's useScenario(FILE), then switch to it by its name.`);
    }
    return this.settings(name);
  }

  list(): Listed[] {
    this.shipped ??= shippedScenarios().map(({ name, description }) => ({ name, description }));
    const loaded = [...this.files.values()].map(({ name, description }) => ({ name, description }));
    return [...this.shipped.filter((s) => !this.files.has(s.name)), ...loaded];
  }
}
