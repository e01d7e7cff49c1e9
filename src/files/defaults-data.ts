import { FixtureError, parseFixtures, readFailure } from '../core/input/fixtures.js';
import { createDefaults, type DefaultsInput, type ScenarioDefaults } from '../core/scenarios/defaults.js';
import type { Pet } from '../core/types.js';
import { MAX_FIXTURES_FILE_BYTES, readUserFile } from './read-file.js';
import { loadProfile } from './profile-file.js';

/** What the command line (or the library's options) says about data and keys: fixtures and a profile may be files. */
type DefaultsOptions = Omit<DefaultsInput, 'fixtures' | 'profile'> & { fixtures?: string | readonly Pet[]; profile?: string | object };

/** The defaults, with the fixtures file they came from, which can be read again. */
export interface LiveDefaults extends ScenarioDefaults {
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
    return readUserFile(file, MAX_FIXTURES_FILE_BYTES);
  } catch (error) {
    throw new FixtureError(`cannot read the fixtures file ${file} (${readFailure(error)}); check the path given to --fixtures.`);
  }
}

/** Reads fixtures and keys into the settings before any scenario, with a cache of generated stores. */
export function prepareDefaults(options: DefaultsOptions): LiveDefaults {
  const file = typeof options.fixtures === 'string' ? options.fixtures : undefined;
  const profile = options.profile === undefined ? undefined : loadProfile(options.profile, 'profile');
  const load = (text: string | undefined): ScenarioDefaults =>
    createDefaults({
      ...options,
      fixtures: file === undefined ? (options.fixtures as readonly Pet[] | undefined) : parseFixtures(text as string, file),
      profile,
    });
  let text = file === undefined ? undefined : readFixturesText(file);
  let defaults = load(text);
  let version = 0;
  return {
    get settings() {
      return defaults.settings;
    },
    baseFor: (data) => defaults.baseFor(data),
    get version() {
      return version;
    },
    file,
    refresh() {
      if (file === undefined) return;
      const now = readFixturesText(file);
      if (now === text) return;
      // Loaded before anything changes, so a file with a mistake leaves the old defaults in place.
      defaults = load(now);
      text = now;
      version++;
    },
  };
}
