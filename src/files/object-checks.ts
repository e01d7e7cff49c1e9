// Documents sent over HTTP or given to the library rather than read from a file: a scenario object
// (`PUT /__admin/scenario {"scenario": …}`) and a snapshot. Both are checked against the schemas
// shipped in scenarios/, and their mistakes named by JSON pointer, since there are no lines.
import type { SchemaError as ErrorObject } from '../core/input/schema-check.js';
import { scenarioSchemaErrors, snapshotSchemaErrors } from '../core/scenarios/schema-documents.js';
import { MockError, type ErrorDetail } from '../core/errors.js';
import { dataWithoutFiles, type ScenarioDefaults } from '../core/scenarios/defaults.js';
import { ScenarioSpecError, compileScenario, type ScenarioSpec } from '../core/scenarios/scenario-compiler.js';
import { narrowOneOf, pickError } from '../core/scenarios/schema-errors.js';
import type { SessionSettings } from '../core/state/session-state.js';
import { pointerOf, type SnapshotSchemaCheck } from '../core/state/snapshot-restore.js';

/**
 * Every wrong field of a value, each once, by JSON pointer: the deepest places Ajv found a mistake,
 * each explained as a scenario file's mistake is (schema-errors.ts), with the errors above it for context.
 */
export function problemsOf(all: readonly ErrorObject[]): ErrorDetail[] {
  // The shapes of a oneOf the value plainly is not say nothing about it.
  const errors = narrowOneOf(all);
  // A key that should not be there, or one missing, is a mistake at that key, not at its object.
  const placeOf = (e: ErrorObject): string => {
    const { additionalProperty, missingProperty } = e.params as { additionalProperty?: string; missingProperty?: string };
    const key = additionalProperty ?? missingProperty;
    return key === undefined ? e.instancePath : `${e.instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  };
  const paths = [...new Set(errors.filter((e) => e.keyword !== 'oneOf').map(placeOf))];
  const deepest = paths.filter((p) => !paths.some((q) => q !== p && q.startsWith(`${p}/`)));
  const details = new Map<string, string>();
  for (const path of deepest) {
    const around = all.filter((e) => placeOf(e) === path || path.startsWith(`${e.instancePath}/`) || e.instancePath === path);
    const problem = pickError(around);
    if (!problem) continue;
    const pointer = pointerOf(placeOfProblem(problem)) || '/';
    if (!details.has(pointer)) details.set(pointer, problem.message);
  }
  return [...details].map(([field, message]) => ({ field, message }));
}

/** The snapshot schema's check, for `readSnapshot`: the first mistake by JSON pointer. */
export const checkSnapshotSchema: SnapshotSchemaCheck = (value) => {
  const errors = snapshotSchemaErrors(value);
  const problem = pickError(errors);
  if (!problem) return undefined;
  const message = problem.path.length === 0 ? problem.message.replace(/\bthe scenario\b/, 'the snapshot') : problem.message;
  return { pointer: pointerOf(placeOfProblem(problem)), message };
};

/** Where a mistake is: a missing key is the wrong field itself, not the object around it. */
function placeOfProblem(problem: { path: readonly (string | number)[]; message: string }): (string | number)[] {
  const missing = /needs the key "([^"]+)"$/.exec(problem.message)?.[1];
  return missing === undefined ? [...problem.path] : [...problem.path, missing];
}

/** The name a scenario object sent without one runs under. */
export const UNNAMED_SCENARIO = 'custom';

/**
 * Checks a scenario object as a scenario file is checked (the same schema, the same rules) and
 * compiles it for `defaults`. Throws `scenario_invalid` (400) whose `details` name each wrong field
 * by JSON pointer. The admin API reads no files it is sent, so `data.fixtures` is refused.
 */
export function scenarioFromObject(value: unknown, defaults: ScenarioDefaults): SessionSettings {
  const details = problemsOf(scenarioSchemaErrors(value));
  if (details.length > 0) throw scenarioInvalid(details);
  const spec = value as ScenarioSpec;
  if (spec.data?.fixtures !== undefined) {
    throw scenarioInvalid([
      { field: '/data/fixtures', message: 'a scenario sent as an object reads no files; start the mock with --fixtures, or give data.seed and data.count' },
    ]);
  }
  try {
    const settings = compileScenario(spec, spec.name ?? UNNAMED_SCENARIO, {
      defaults: defaults.settings,
      data: dataWithoutFiles(defaults),
    });
    return { ...settings, inline: true };
  } catch (error) {
    if (error instanceof ScenarioSpecError) throw scenarioInvalid([{ field: pointerOf(error.path) || '/', message: error.message }]);
    throw error;
  }
}

function scenarioInvalid(details: ErrorDetail[]): MockError {
  const [first] = details;
  const more = details.length > 1 ? ` (and ${details.length - 1} more in details)` : '';
  return new MockError(
    'scenario_invalid',
    `the scenario object is not valid at ${first?.field ?? '/'}: ${first?.message ?? 'unknown mistake'}${more}; fix it and send it again.`,
    {
      details,
    },
  );
}
