// The `verify` subcommand as yargs declares it. Only the declaration lives here: the runner loads
// when the command runs, so neither a server start nor `--help` pays for it.
import type { Argv } from 'yargs';
import { UsageError, givenOnce } from './start.js';

/** The options of `petstore-mock verify BASE_URL`. */
export function verifyOptions<T>(y: Argv<T>) {
  return y
    .positional('base-url', { type: 'string', describe: 'The API base URL, ending in /v1 (e.g. https://staging.example.com/v1)' })
    .option('key', { type: 'string', requiresArg: true, describe: 'The API key to send as a bearer token (never printed)' })
    .option('read-only', { type: 'boolean', default: false, describe: 'Send no POST: skip the create rules' })
    .option('rate-limits', { type: 'boolean', default: false, describe: 'Also exhaust the quota to check 429, Retry-After and no ban (waits as told)' })
    .option('max-requests', {
      type: 'string',
      requiresArg: true,
      default: '60',
      defaultDescription: '60',
      describe: 'The most requests to send, retries included',
    })
    .option('timeout', {
      type: 'string',
      requiresArg: true,
      default: '10',
      defaultDescription: '10',
      describe: 'Seconds each answer may take, headers and body, before verify gives up on it',
    })
    .option('compare-mock', {
      type: 'boolean',
      default: false,
      describe: 'Also send the same requests to an in-process mock set up alike and report every difference',
    })
    .option('profile', { type: 'string', requiresArg: true, describe: 'Write what was measured (latency, limits, Retry-After form, error codes) to FILE' })
    .option('reporter', { choices: ['pretty', 'json', 'junit'] as const, requiresArg: true, default: 'pretty' as const, describe: 'How to print the report' });
}

/** Runs `verify` with what yargs parsed; sets the exit code (0 all hold, 1 a rule fails, 2 could not run). */
export async function runVerifyCommand(argv: Record<string, unknown>): Promise<void> {
  const once = (name: string): unknown => givenOnce(name, argv[name]);
  const baseUrl = once('base-url');
  if (typeof baseUrl !== 'string' || baseUrl === '')
    throw new UsageError('verify needs the base URL of the API to check: petstore-mock verify https://staging.example.com/v1 --key KEY.');
  const key = once('key');
  if (typeof key !== 'string' || key === '') throw new UsageError('verify needs --key KEY: the API key to send (it is never printed).');
  const maxRequests = String(once('max-requests'));
  if (!/^\d+$/.test(maxRequests) || Number(maxRequests) < 1 || Number(maxRequests) > 100_000)
    throw new UsageError(`--max-requests must be a whole number from 1 to 100000, not ${JSON.stringify(maxRequests)}.`);
  const timeout = String(once('timeout'));
  if (!/^\d+$/.test(timeout) || Number(timeout) < 1 || Number(timeout) > 600)
    throw new UsageError(`--timeout must be a whole number of seconds from 1 to 600, not ${JSON.stringify(timeout)}.`);
  const { verifyCommand } = await import('../verify/cli.js');
  process.exitCode = await verifyCommand({
    baseUrl,
    key,
    readOnly: once('read-only') === true,
    rateLimits: once('rate-limits') === true,
    maxRequests: Number(maxRequests),
    timeout: Number(timeout),
    reporter: once('reporter') as 'pretty' | 'json' | 'junit',
    compareMock: once('compare-mock') === true,
    ...(typeof once('profile') === 'string' && { profile: once('profile') as string }),
  });
}
