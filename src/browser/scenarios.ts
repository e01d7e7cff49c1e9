import { scenarioSchemaErrors } from '../core/scenarios/schema-documents.js';
import { ScenarioError, ScenarioSpecError, compileScenario, isScenarioName, type ScenarioSpec } from '../core/scenarios/scenario-compiler.js';
import { dataWithoutFiles, type ScenarioDefaults } from '../core/scenarios/defaults.js';
import { pickError } from '../core/scenarios/schema-errors.js';
import type { SessionSettings } from '../core/state/session-state.js';

/** A scenario given as an object, as a scenario file would hold it; `name` is what `useScenario` switches by. */
export type ScenarioObject = Omit<ScenarioSpec, '$schema' | 'name'> & { name: string };

/**
 * The shipped scenarios (scenarios/*.yaml) as objects, defined at build time (scripts/build.mjs,
 * vitest.config.ts): the browser has no disk to read them from.
 */
declare const __PETSTORE_SHIPPED_SCENARIOS__: readonly ScenarioObject[];

/** The shipped scenarios, as objects; a reset or a switch starts them as the server would. */
export function shippedScenarioObjects(): readonly ScenarioObject[] {
  return __PETSTORE_SHIPPED_SCENARIOS__;
}

/** `steps[0].answer.status` style, for messages about an object (there are no lines to point at). */
function placeOf(name: string, path: readonly (string | number)[]): string {
  const where = path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
    .join('')
    .replace(/^\./, '');
  return where === '' ? `the scenario ${JSON.stringify(name)}` : `the scenario ${JSON.stringify(name)} at ${where}`;
}

/**
 * Checks a scenario object as a file would be checked (the same schema, the same rules) and
 * compiles it for `defaults`; throws `ScenarioError` naming the place of the mistake.
 */
export function compileScenarioObject(value: unknown, defaults: ScenarioDefaults): SessionSettings {
  const name =
    value !== null && typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string' ? (value as { name: string }).name : '(unnamed)';
  const problem = pickError(scenarioSchemaErrors(value));
  if (problem) throw new ScenarioError(`${placeOf(name, problem.path)}: ${problem.message}; fix the object and try again.`);
  const spec = value as ScenarioSpec;
  if (spec.name === undefined || !isScenarioName(spec.name)) {
    throw new ScenarioError(
      'a scenario object needs a name of lower-case letters, digits and - (such as "checkout-outage"), so that useScenario can switch to it.',
    );
  }
  if (spec.data?.fixtures !== undefined) {
    throw new ScenarioError(
      `${placeOf(spec.name, ['data', 'fixtures'])}: the browser build reads no files; give the animals as the handler's fixtures option instead.`,
    );
  }
  try {
    return compileScenario(spec, spec.name, {
      defaults: defaults.settings,
      data: dataWithoutFiles(defaults),
    });
  } catch (error) {
    if (error instanceof ScenarioSpecError) throw new ScenarioError(`${placeOf(spec.name, error.path)}: ${error.message}; fix the object and try again.`);
    throw error;
  }
}
