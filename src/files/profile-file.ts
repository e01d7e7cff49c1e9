// Profiles read from disk (`--profile FILE`, `startMock({ profile: path })`, a scenario's
// `profile:` path), checked and compiled; every mistake names the file and the field.
import { UserError } from '../core/errors.js';
import { ProfileProblem, checkProfile, compileProfile, type CompiledProfile } from '../core/scenarios/profile.js';
import { MAX_SCENARIO_FILE_BYTES, readUserFile } from './read-file.js';
import { displayPath } from './display-path.js';

/** The JSON of a profile file, unchecked; throws a `UserError` naming the file when it cannot be read or parsed. */
export function readProfileJson(file: string): unknown {
  let text: string;
  try {
    text = readUserFile(file, MAX_SCENARIO_FILE_BYTES);
  } catch (error) {
    throw new UserError(
      `could not read the profile ${displayPath(file)}: ${(error as Error).message}; write one with petstore-mock verify BASE_URL --key KEY --profile FILE.`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UserError(`the profile ${displayPath(file)} is not JSON (${(error as Error).message}); write one with petstore-mock verify --profile FILE.`);
  }
}

/** A profile given to the mock (a document, or the path of its file) as the mock runs it. */
export function loadProfile(source: string | object, option: string): CompiledProfile {
  const document = typeof source === 'string' ? readProfileJson(source) : source;
  try {
    return compileProfile(checkProfile(document));
  } catch (error) {
    if (!(error instanceof ProfileProblem)) throw error;
    const what = typeof source === 'string' ? `the profile ${displayPath(source)}` : `the "${option}" option`;
    throw new UserError(`${what} is not a petstore-mock profile${error.at === '' ? '' : ` (at ${error.at})`}: ${error.message}.`);
  }
}
