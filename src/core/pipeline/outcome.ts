// What the operation step ends in, and the errors of the checks before it: the same for every home
// of state, so each check's answer is written once.
import { MockError, errorBody, internalErrorMessage } from '../errors.js';
import { WWW_AUTHENTICATE_INVALID, redactKey } from './auth.js';
import type { RateDecision } from '../state/limiter.js';
import type { ConnectionFault } from '../types.js';
import type { ForcedAnswer } from '../state/session-state.js';

/** The outcome of the operation step: a body and its status, or an error. */
export interface Outcome {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  code?: string;
  reason: string;
  /** A connection fault a scenario forced instead of a clean answer. */
  fault?: ConnectionFault;
  /** Scenario latency before the answer. */
  delayMs?: number;
}

/** The 429 of a refused request: the ban, or the window used up. */
export function limitError(decision: Exclude<RateDecision, { outcome: 'allowed' }>, key: string | undefined): MockError {
  const retry = decision.report.retryAfter ?? 1;
  if (decision.outcome === 'banned') {
    const until = new Date(decision.bannedUntil).toISOString();
    return new MockError(
      'key_banned',
      `The API key ${key ? redactKey(key) : ''} is temporarily banned until ${until} for sending requests while rate limited. Retry after ${retry} s and back off exponentially.`,
    );
  }
  // 'per-minute', 'per-day', 'per-second', 'per-hour': the window that refused.
  const which = `per-${decision.window}`;
  return new MockError(
    'rate_limited',
    `The ${which} rate limit of ${decision.report.limit} requests is used up. Retry after ${retry} s; requests sent while limited can get the key banned.`,
  );
}

/** A scenario's forced answer: still a valid answer of the API, with the headers its status needs. */
export function forcedOutcome(forced: ForcedAnswer, now: number): Outcome {
  // A success (the document's body, or none) carries no error.
  if (forced.status < 300)
    return { status: forced.status, body: forced.body, reason: forced.reason, headers: forced.location ? { Location: forced.location } : undefined };
  const code = forced.code ?? 'internal_error';
  const message = forced.message ?? `A scenario forced this ${forced.status} answer (${forced.reason}).`;
  const headers: Record<string, string> = {};
  if (forced.status === 401) headers['WWW-Authenticate'] = WWW_AUTHENTICATE_INVALID;
  if (forced.retryAfter !== undefined) {
    headers['Retry-After'] = String(forced.retryAfter);
    // A 429's reset must agree with its Retry-After and Date, whatever the real windows say.
    if (forced.status === 429) {
      headers['X-RateLimit-Remaining'] = '0';
      headers['X-RateLimit-Reset'] = String(Math.floor(now / 1000) + forced.retryAfter);
    }
  }
  return { status: forced.status, body: errorBody(code, message, forced.status), code, reason: forced.reason, headers };
}

export function toOutcome(error: unknown): Outcome {
  if (error instanceof MockError) {
    return {
      status: error.status,
      body: errorBody(error.code, error.message, error.status, error.details),
      headers: error.headers,
      code: error.code,
      reason: error.message,
    };
  }
  const message = internalErrorMessage(error);
  return { status: 500, body: errorBody('internal_error', message, 500), code: 'internal_error', reason: message };
}
