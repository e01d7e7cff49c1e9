import { DEFAULT_DEPRECATED_AT, DEFAULT_REMOVAL_AT } from '../pipeline/deprecation.js';
import { DEFAULT_JOURNAL_SIZE } from './journal.js';
import { ANONYMOUS_LIMITS, DEFAULT_BAN_RULE, demoKeys } from './plans.js';
import { DEFAULT_PET_COUNT, DEFAULT_SEED, generatePets } from './seed.js';
import { BaseData } from './base-data.js';
import type { KeyConfig, Pet } from '../types.js';
import type { SessionSettings } from './session-state.js';
import type { ScenarioSpec } from '../scenarios/scenario-spec.js';

/** The definition shown (and a snapshot carries) for settings that came from no scenario: the command line's. */
export const NO_SCENARIO: ScenarioSpec = { description: "The command line's settings, with no scenario." };

/** What the server was started with, before any scenario. */
export interface DataOptions {
  /** The Faker seed; the same seed gives byte-identical answers. */
  seed?: number;
  /** How many animals to generate (ignored when `pets` is given). */
  count?: number;
  /** Animals to serve instead of generated ones (from `--fixtures`). */
  pets?: readonly Pet[];
}

/** The shared read-only data of a server. */
export function buildBaseData(options: DataOptions): BaseData {
  if (options.pets) return new BaseData(options.pets);
  return new BaseData(generatePets(options.seed ?? DEFAULT_SEED, options.count ?? DEFAULT_PET_COUNT));
}

/**
 * Default settings: the specification's behaviour with the real clock, the demo keys plus any
 * extra keys (a key given again replaces the demo key of that name).
 */
export function defaultSettings(base: BaseData, extraKeys: readonly KeyConfig[] = []): SessionSettings {
  const keys = new Map<string, KeyConfig>(demoKeys().map((k) => [k.key, k]));
  for (const key of extraKeys) keys.set(key.key, key);
  return {
    scenario: 'default',
    base,
    keys: [...keys.values()],
    anonymousLimits: ANONYMOUS_LIMITS,
    ban: { ...DEFAULT_BAN_RULE },
    deprecation: { deprecatedAt: DEFAULT_DEPRECATED_AT, removalAt: DEFAULT_REMOVAL_AT },
    clock: { frozen: false },
    usage: [],
    journalSize: DEFAULT_JOURNAL_SIZE,
  };
}
