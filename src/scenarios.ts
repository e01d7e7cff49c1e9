import type { WorldSettings } from './core/world.js';

/** A named scenario: a description and how it changes the server's default settings. */
export interface ScenarioDefinition {
  name: string;
  description: string;
  apply(defaults: WorldSettings): WorldSettings;
}

const DEFAULT_SCENARIO: ScenarioDefinition = {
  name: 'default',
  description: "The specification's behaviour with the real clock.",
  apply: (defaults) => defaults,
};

/** The scenarios shipped in `scenarios/`, by name. */
export function shippedScenarios(): ScenarioDefinition[] {
  return [DEFAULT_SCENARIO];
}

/** A scenario that cannot be loaded; the message names the file or name and what to fix. */
export class ScenarioError extends Error {}

/** Finds a shipped scenario by name or loads a scenario file. */
export function loadScenario(nameOrFile: string): ScenarioDefinition {
  const found = shippedScenarios().find((s) => s.name === nameOrFile);
  if (found) return found;
  const names = shippedScenarios().map((s) => s.name).join(', ');
  throw new ScenarioError(`petstore-mock: unknown scenario ${JSON.stringify(nameOrFile)}; use one of ${names}, or a path to a .yaml or .json scenario file.`);
}
