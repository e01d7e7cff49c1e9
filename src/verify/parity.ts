// verify with its two additions: `compareMock` (the same requests to an in-process mock, every
// difference reported) and `profile` (what was measured, as the document the mock reads back).
import { UserError } from '../core/errors.js';
import { compareWithMock } from './compare.js';
import { buildProfile, writeProfile } from './profile.js';
import { runVerifyLogged } from './run.js';
import type { VerifyOptions, VerifyReport } from './types.js';

/** Runs verify, then compares with the mock and measures the profile when asked. */
export async function runVerifyWith(baseUrl: string, options: VerifyOptions): Promise<VerifyReport> {
  const profile: unknown = options?.profile;
  if (profile !== undefined && typeof profile !== 'boolean' && (typeof profile !== 'string' || profile.trim() === ''))
    throw new UserError(`verify's profile must be true or the path of the file to write, not ${JSON.stringify(profile) ?? String(profile)}.`);
  const compare: unknown = options?.compareMock;
  if (compare !== undefined && typeof compare !== 'boolean')
    throw new UserError(`verify's compareMock must be true or false, not ${JSON.stringify(compare) ?? String(compare)}.`);
  const { report, client, probeJson } = await runVerifyLogged(baseUrl, options);
  if (options.profile !== undefined && options.profile !== false) {
    report.profile = buildProfile(report.base, client.log, (text) => client.scrub(text));
    if (typeof options.profile === 'string') writeProfile(options.profile, report.profile);
  }
  if (options.compareMock) {
    const differences = await compareWithMock(client.log, options.key, probeJson);
    // Differences quote what the deployment sent: the key is hidden there too.
    report.differences = differences.map((d) => ({
      behaviour: d.behaviour,
      request: client.scrub(d.request),
      deployment: client.scrub(d.deployment),
      mock: client.scrub(d.mock),
      message: client.scrub(d.message),
    }));
  }
  return report;
}
