import { MockError } from '../errors.js';

/**
 * The refusal of a snapshot, a restore or a scenario object by a build that cannot check them: the
 * browser bundle carries no JSON Schema checks (both homes of the Node package have them).
 */
export function unsupportedOnThisHome(what: 'snapshots' | 'scenario objects'): MockError {
  return new MockError(
    'snapshot_unsupported',
    `${what} are not available in the browser bundle (it carries none of the schema checks they need); use the Node package or the container for them.`,
  );
}
