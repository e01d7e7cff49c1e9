// The mistakes a scenario can hold, and the names and bounds they are judged by: shared by the
// compiler (scenario-compiler.ts) and the forced answers' check (forced-answers.ts).
import { UserError } from '../errors.js';

/** The most seconds a forced answer's `Retry-After` may say: a day. */
export const MAX_RETRY_AFTER_S = 86_400;

/** Whether a text is a scenario name (as files and the admin API use them), not a path. */
export function isScenarioName(text: string): boolean {
  return /^[a-z0-9][a-z0-9-]{0,63}$/.test(text);
}

/** A scenario that cannot be used; the message names the file or name, the line, and what to fix. */
export class ScenarioError extends UserError {
  override name = 'ScenarioError';
}

/** A mistake the schema cannot see, at a place in the scenario (keys and indexes from the top). */
export class ScenarioSpecError extends Error {
  constructor(
    readonly path: readonly (string | number)[],
    message: string,
  ) {
    super(message);
    this.name = 'ScenarioSpecError';
  }
}
