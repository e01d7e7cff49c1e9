// The library's door to verify: the runner (and the validator it compiles) loads on the first
// call, so importing petstore-mock costs nothing more for it.
import type { VerifyOptions, VerifyReport } from './types.js';

/**
 * Checks a deployment of the Animal Store API (its base URL, ending in /v1) against the
 * specification's behavioural contract and returns one verdict per rule. Sends at most
 * `maxRequests` (60) requests; `readOnly` sends no POST; `rateLimits` also exhausts the quota and
 * waits as told; `compareMock` also compares every answer with an in-process mock's and `profile`
 * measures the deployment (docs/verify.md). Rejects with `VerifyCouldNotRun` when the service is unreachable or refuses the key.
 */
export async function verify(baseUrl: string, options: VerifyOptions): Promise<VerifyReport> {
  const { runVerify } = await import('./run.js');
  return runVerify(baseUrl, options);
}
