import { readFileSync } from 'node:fs';
import { FixtureError, parseFixtures, readFailure } from '../core/input/fixtures.js';
import { createHost, type ScenarioHost } from '../core/scenarios/host.js';
import type { KeyConfig, Pet } from '../core/types.js';

/** What the command line (or the library's options) says about data and keys. */
export interface HostOptions {
  seed?: number;
  pets?: number;
  fixtures?: string | readonly Pet[];
  keys?: readonly (string | KeyConfig)[];
}

/** Reads fixtures and keys into the settings before any scenario, with a cache of generated stores. */
export function prepareHost(options: HostOptions): ScenarioHost {
  if (typeof options.fixtures !== 'string') return createHost({ ...options, fixtures: options.fixtures });
  let text: string;
  try {
    text = readFileSync(options.fixtures, 'utf8');
  } catch (error) {
    throw new FixtureError(`petstore-mock: cannot read the fixtures file ${options.fixtures} (${readFailure(error)}); check the path given to --fixtures.`);
  }
  return createHost({ ...options, fixtures: parseFixtures(text, options.fixtures) });
}
