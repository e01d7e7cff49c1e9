// The runner: checks the options, sends the first request (which decides whether verify can run
// at all), runs the rules in an order that lets later ones use what earlier ones learned, and
// reports them in a fixed order; then, when asked, the comparison with a mock and the profile.
import { UserError } from '../core/errors.js';
import { DEFAULT_REMOVAL_AT } from '../core/pipeline/deprecation.js';
import { BudgetSpent, Client, StopSending, type Logged } from './client.js';
import { compareWithMock } from './compare.js';
import { buildProfile, writeProfile } from './profile.js';
import { petsOf, requestLine, type Context, type Rule, type Verdict } from './rule.js';
import { bodies, errorShape, rateHeaders } from './rules-answers.js';
import { authInvalid, authRequired, defaultLimit, limitBounds, statusFilter } from './rules-list.js';
import { createAssigns, createRejects, deprecationHeaders, getFound, getNotFound, removal } from './rules-pets.js';
import { noBan, retryAfter } from './rules-rate.js';
import { VerifyCouldNotRun, type RuleResult, type VerifyOptions, type VerifyReport } from './types.js';

/**
 * Every rule, in the order the report lists them. Those that send run in this order too, which
 * lets later ones use what earlier ones learned; those judging every answer run last.
 */
const RULES: readonly Rule[] = [
  authRequired,
  authInvalid,
  errorShape,
  defaultLimit,
  limitBounds,
  statusFilter,
  createAssigns,
  createRejects,
  getFound,
  getNotFound,
  deprecationHeaders,
  removal,
  rateHeaders,
  retryAfter,
  noBan,
  bodies,
];

/** Every rule verify checks, in the report's order: its id and what it checks. */
export const VERIFY_RULES: readonly { id: string; title: string }[] = RULES.map(({ id, title }) => ({ id, title }));

/** The address as typed, with anything before an `@` in its authority hidden: it may hold a password. */
function withoutCredentials(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i, (_all, scheme: string | undefined) => `${scheme ?? ''}…@`);
}

function checkOptions(baseUrl: string, options: VerifyOptions): string {
  const profile: unknown = options?.profile;
  if (profile !== undefined && typeof profile !== 'boolean' && (typeof profile !== 'string' || profile.trim() === ''))
    throw new UserError(`verify's profile must be true or the path of the file to write, not ${JSON.stringify(profile) ?? String(profile)}.`);
  const compare: unknown = options?.compareMock;
  if (compare !== undefined && typeof compare !== 'boolean')
    throw new UserError(`verify's compareMock must be true or false, not ${JSON.stringify(compare) ?? String(compare)}.`);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UserError(`verify needs the API's base URL, such as https://staging.example.com/v1, not ${JSON.stringify(withoutCredentials(String(baseUrl)))}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UserError(`verify talks HTTP: give an http:// or https:// base URL, not ${JSON.stringify(withoutCredentials(baseUrl))}.`);
  if (url.username !== '' || url.password !== '') {
    url.username = '';
    url.password = '';
    // Refused, not sent as Basic auth: the API takes a bearer key, and a password in an address ends up in shell histories and CI logs.
    throw new UserError(
      `verify takes no user name or password in the base URL; give it without them (${url.href.replace(/[?#].*$/, '').replace(/\/+$/, '')}) and the API key with --key.`,
    );
  }
  if (typeof options?.key !== 'string' || options.key === '' || /\s/.test(options.key))
    throw new UserError('verify needs the API key to send (--key KEY, or the key option): one word, no spaces.');
  const whole = (name: string, value: number | undefined, min: number): void => {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < min))
      throw new UserError(`verify's ${name} must be a whole number of at least ${min}, not ${String(value)}.`);
  };
  whole('maxRequests', options.maxRequests, 1);
  whole('timeout', options.timeout, 1);
  whole('maxWait', options.maxWait, 0);
  return url.href.replace(/[?#].*$/, '').replace(/\/+$/, '');
}

/** The first request: whether the service answers at all and accepts the key. */
async function probe(client: Client, base: string): Promise<Logged> {
  let first: Logged;
  try {
    first = await client.send({ operation: 'listPets', method: 'GET', path: '/pets?limit=100', auth: 'key' });
  } catch (error) {
    if (error instanceof StopSending)
      throw new VerifyCouldNotRun(client.scrub(`could not run: the key is rate-limited now: ${error.message}.`), 'rate-limited');
    throw error;
  }
  const response = first.exchange.response;
  if (!response)
    throw new VerifyCouldNotRun(
      `could not run: ${base} is unreachable (${first.exchange.error ?? 'no answer'}); check the URL and that the service is up.`,
      'unreachable',
    );
  const code = first.seen.code;
  if (response.status === 401)
    throw new VerifyCouldNotRun(
      client.scrub(`could not run: ${base} refused the key (${requestLine(first)} answered 401${code === undefined ? '' : ` ${code}`}); check --key.`),
      'key-refused',
    );
  if (response.status >= 300 && response.status < 400)
    throw new VerifyCouldNotRun(
      client.scrub(
        `could not run: ${requestLine(first)} answered ${response.status}, a redirect${response.headers.location ? ` to ${response.headers.location}` : ''}; give the base URL it leads to.`,
      ),
      'not-the-api',
    );
  if (response.status === 404)
    throw new VerifyCouldNotRun(
      `could not run: ${requestLine(first)} answered 404, so ${base} is not the API's base URL; give the one that ends in /v1, such as https://staging.example.com/v1.`,
      'not-the-api',
    );
  return first;
}

/**
 * Runs the specification's behavioural contract against the deployment at `baseUrl` (ending in
 * /v1), then compares with the mock and measures the profile when asked. Throws
 * `VerifyCouldNotRun` when the address does not answer or refuses the key.
 */
export async function runVerify(baseUrl: string, options: VerifyOptions): Promise<VerifyReport> {
  const base = checkOptions(baseUrl, options);
  const client = new Client(base, options);
  const first = await probe(client, base);
  const ctx: Context = { client, options, probe: first, pets: petsOf(first.json) ?? [], removed: first.at >= DEFAULT_REMOVAL_AT };
  const verdicts = new Map<string, Verdict>();
  const timings: Record<string, number> = {};
  let stopped: string | undefined;
  let stoppedShort = '';
  for (const rule of [...RULES.filter((r) => !r.judgesAll), ...RULES.filter((r) => r.judgesAll)]) {
    if (stopped !== undefined && !rule.judgesAll) {
      verdicts.set(rule.id, { kind: 'skip', message: `not checked: ${stoppedShort}` });
      continue;
    }
    const started = performance.now();
    try {
      verdicts.set(rule.id, await rule.run(ctx));
    } catch (error) {
      if (error instanceof BudgetSpent) verdicts.set(rule.id, { kind: 'skip', message: `not checked: ${error.message}; raise --max-requests` });
      else if (error instanceof StopSending) {
        stopped = error.message;
        stoppedShort = error.short;
        verdicts.set(rule.id, { kind: 'skip', message: `not checked: ${stopped}` });
      } else throw error;
    } finally {
      timings[rule.id] = Math.round(performance.now() - started);
    }
  }
  // Messages quote what services sent (a name, a code, a header): the key is hidden there too.
  const rules = RULES.map(({ id }): RuleResult => {
    const verdict = verdicts.get(id) ?? { kind: 'skip', message: 'not run' };
    const evidence = verdict.kind === 'fail' ? verdict.evidence : [];
    return { id, ok: verdict.kind === 'pass', skipped: verdict.kind === 'skip', message: client.scrub(verdict.message), evidence };
  });
  const report: VerifyReport = {
    base,
    passed: rules.filter((r) => r.ok).length,
    failed: rules.filter((r) => !r.ok && !r.skipped).length,
    skipped: rules.filter((r) => r.skipped).length,
    rules,
    requests: client.sent,
    timings,
    ...(stopped === undefined ? {} : { stopped: client.scrub(stopped) }),
  };
  if (options.profile !== undefined && options.profile !== false) {
    report.profile = buildProfile(report.base, client.log, (text) => client.scrub(text));
    if (typeof options.profile === 'string') writeProfile(options.profile, report.profile);
  }
  if (options.compareMock) {
    const differences = await compareWithMock(client.log, options.key, first.json);
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
