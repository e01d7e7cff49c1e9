// What the operation step ends in, and the errors of the checks before it: the same for every home
// of state, so each check's answer is written once.
import { MockError, errorBody, internalErrorMessage } from '../errors.js';
import { WWW_AUTHENTICATE_INVALID, redactKey, type AuthResult } from './auth.js';
import type { Route } from './router.js';
import { SPEC_OPERATIONS } from './operations-table.js';
import type { RateDecision } from '../state/limiter.js';
import type { ConnectionFault } from '../types.js';
import type { ForcedAnswer, SessionSettings } from '../state/session-state.js';

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

/** The operations a 404 names, from the operations table. */
const NOT_FOUND_MESSAGE = `No operation lives at this path. The API has ${SPEC_OPERATIONS.map((op) => `${op.method} ${op.path}`).join(', ')}; paths are case-sensitive with no trailing slash.`;

/** The checks before the rate limit: route, removal date, auth. */
export function earlyError(where: Route, settings: SessionSettings, now: number, auth: AuthResult): MockError | undefined {
  switch (where.kind) {
    case 'not-found':
      return new MockError('route_not_found', NOT_FOUND_MESSAGE);
    case 'method-not-allowed':
      return new MockError('method_not_allowed', `This path does not answer that method; it answers ${where.allow}.`, { headers: { Allow: where.allow } });
    case 'not-implemented':
      return new MockError(
        'not_implemented',
        'petstore-mock does not implement store orders: the specification mentions them but does not define their method, path or payloads. A scenario can declare them with the answers you need (operations, docs/scenarios.md).',
      );
    default:
      break;
  }
  if (where.kind === 'operation' && where.operation === 'getPet' && now >= settings.deprecation.removalAt) {
    const removed = new Date(settings.deprecation.removalAt).toISOString();
    return new MockError('endpoint_removed', `GET /v1/pets/{petId} was removed on ${removed}. Use GET /v1/pets with the status filter instead.`);
  }
  if (!auth.ok) return auth.error;
  return undefined;
}

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
  if (forced.body !== undefined)
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
