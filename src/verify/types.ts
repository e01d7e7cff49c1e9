// The shapes `verify` takes and gives: its options, its report (the JSON reporter prints it as it
// is) and the evidence a rule keeps of what it sent and what came back.
import { UserError } from '../core/errors.js';
import type { Profile } from '../core/scenarios/profile.js';

/** Options of `verify(baseUrl, options)`; the CLI maps its flags onto them. */
export interface VerifyOptions {
  /** The API key, sent as `Authorization: Bearer <key>`. Never printed: evidence shows `<key>`. */
  key: string;
  /** Send no POST: the create rules and the unauthenticated create are skipped. */
  readOnly?: boolean;
  /** Also run the rules that need the quota exhausted (429, Retry-After, no ban while honouring it). */
  rateLimits?: boolean;
  /** The most requests verify sends, every retry included (60 by default). */
  maxRequests?: number;
  /** Seconds each answer may take, headers and body together (10 by default). */
  timeout?: number;
  /** The longest Retry-After verify waits, in seconds (90 by default); a longer one skips what needed it. */
  maxWait?: number;
  /**
   * How verify waits a Retry-After of `seconds`: real time by default (a quarter of a second more,
   * never less). Against a mock in a test, advance its clock instead.
   */
  wait?: (seconds: number) => Promise<void>;
  /** Extra headers on every request, such as `X-Mock-Session` to verify one session of a mock. */
  headers?: Readonly<Record<string, string>>;
  /**
   * Also send the same requests to an in-process mock set up alike (the deployment's animals, the
   * key with the limits it announced, the clock at its Date) and report every difference
   * (`differences`). The mock's requests are not counted in `maxRequests`.
   */
  compareMock?: boolean;
  /**
   * Measure a profile (latency per operation, limits, Retry-After form, error codes) into the
   * report's `profile`; a path also writes it there, atomically (docs/verify.md).
   */
  profile?: boolean | string;
}

/**
 * One request verify sent and what came back, with the key replaced by `<key>` and bodies cut at
 * 2,000 characters (verify reads at most 1 MiB of an answer).
 */
export interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  /** The answer, or undefined when none came (see `error`). */
  response?: { status: number; headers: Record<string, string>; body: string };
  /** Why no answer came: a refused connection, a reset, a timeout. */
  error?: string;
}

/** The verdict on one rule. `ok` is true only for a rule that was checked and holds. */
export interface RuleResult {
  id: string;
  ok: boolean;
  skipped: boolean;
  /** What was checked and what was found, or why the rule was skipped. */
  message: string;
  /** The requests that show a failure (empty when the rule holds or was skipped). */
  evidence: Exchange[];
}

/**
 * What `verify` found: one entry per rule, in a fixed order, and the counts. The JSON reporter
 * prints `base`, `passed`, `failed`, `skipped` and `rules`.
 */
export interface VerifyReport {
  base: string;
  passed: number;
  failed: number;
  skipped: number;
  rules: RuleResult[];
  /** Requests sent, retries included. */
  requests: number;
  /** Milliseconds each rule took by id, waits included (the JUnit reporter's times). */
  timings: Record<string, number>;
  /**
   * Set when the run stopped before every rule was checked (the service answered 429 and
   * `rateLimits` was off, so verify stopped sending); the rules not reached say so.
   */
  stopped?: string;
  /** With `compareMock`: each behaviour in which the mock answered otherwise than the deployment. */
  differences?: Difference[];
  /** With `profile`: what was measured, as the document `--profile` writes. */
  profile?: Profile;
}

/** One behaviour in which the deployment and the mock answered the same request differently. */
export interface Difference {
  /** What differs: `status`, `error-code`, `header.x-ratelimit-remaining`, `retry-after`, `ban`, `list.order`, … */
  behaviour: string;
  /** The request as sent to both: `GET /v1/pets?limit=0`. */
  request: string;
  /** What the deployment did. */
  deployment: string;
  /** What the mock did. */
  mock: string;
  /** The two side by side, with the rule each follows. */
  message: string;
}

/**
 * verify could not run at all: the address did not answer, the service refused the key (or the
 * quota) on the first request, or what answered is not the API (a redirect, a 404 for the list).
 * `reason` says which and what to do; the CLI exits 2.
 */
export class VerifyCouldNotRun extends UserError {
  override name = 'VerifyCouldNotRun';

  constructor(
    reason: string,
    readonly kind: 'unreachable' | 'key-refused' | 'rate-limited' | 'not-the-api',
  ) {
    super(reason);
  }
}
