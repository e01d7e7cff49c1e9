import type { TimeSource } from '../state/clock.js';
import { addCorsHeaders, isPreflight, preflightHeaders } from './cors.js';
import { deprecationHeaders } from './deprecation.js';
import { MockError, errorBody, internalErrorMessage } from '../errors.js';
import { WWW_AUTHENTICATE_INVALID, authenticate, redactKey, redactQuery, type AuthResult } from './auth.js';
import { isoTime, type JournalEntry } from '../state/journal.js';
import { setRateHeaders, rateHeaders, type RateDecision, type RateReport } from '../state/limiter.js';
import { openapiDocument } from '../input/openapi.js';
import { runOperation } from './operations.js';
import { allowedMethods, route, type Route } from './router.js';
import { SessionRegistry } from '../state/sessions.js';
import type { ApiCore } from '../state/backend.js';
import type { ConnectionFault, CoreRequest, CoreResponse } from '../types.js';
import { addressBucket, keyBucket, type ForcedAnswer, type World, type WorldSettings } from '../state/world.js';

/** Options of the core engine; everything with side effects is passed in. */
export interface EngineOptions {
  /** The settings every session starts with (from the CLI flags or a scenario). */
  settings: WorldSettings;
  /** The real time source the virtual clocks run on; Date.now by default. */
  now?: TimeSource;
  /** How many `X-Mock-Session` sessions to keep at once. */
  maxSessions?: number;
  /** Called once per answered API request, for logs. */
  onRequest?: (entry: JournalEntry) => void;
}

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

const JSON_TYPE = 'application/json';
/** Past this many distinct keys the memo of bucket ids and redacted keys starts over. */
const MEMO_LIMIT = 10_000;

/** Remembers a pure function's answers for the few keys a server sees, so the hot path builds no strings. */
function memo(fn: (key: string) => string): (key: string) => string {
  const seen = new Map<string, string>();
  return (key) => {
    let value = seen.get(key);
    if (value === undefined) {
      if (seen.size >= MEMO_LIMIT) seen.clear();
      value = fn(key);
      seen.set(key, value);
    }
    return value;
  };
}

/**
 * The mock's core: takes a plain request and returns a plain response, applying the checks in
 * the documented order: preflight, route (404/405/501), removal date (410), auth (401), ban and
 * rate limit (429), then the operation's own media type (415), size (413), validation (400).
 */
export class MockEngine implements ApiCore {
  readonly sessions: SessionRegistry;
  private readonly onRequest: ((entry: JournalEntry) => void) | undefined;
  private readonly documentBody = JSON.stringify(openapiDocument);
  private readonly monotonic: () => number;
  private readonly bucketOfKey = memo(keyBucket);
  private readonly redacted = memo(redactKey);

  constructor(options: EngineOptions) {
    this.sessions = new SessionRegistry(options.settings, options.now ?? Date.now, options.maxSessions);
    this.onRequest = options.onRequest;
    this.monotonic = () => performance.now();
  }

  /** Answers one API request. Never throws: a bug becomes a 500 with the Error body. */
  handle(req: CoreRequest): CoreResponse {
    const started = this.monotonic();
    let world: World;
    try {
      world = this.sessions.resolve(req.headers['x-mock-session']);
    } catch (error) {
      world = this.sessions.defaultWorld;
      const outcome = toOutcome(error);
      return this.finish(req, world, outcome, undefined, undefined, started);
    }
    let outcome: Outcome;
    let auth: AuthResult | undefined;
    let report: RateReport | undefined;
    let extraHeaders: Record<string, string> | undefined;
    let forced: ForcedAnswer | undefined;
    // Read once: the answer's headers and journal entry use the instant the checks used.
    let now: number | undefined;
    try {
      now = world.clock.now();
      if (isPreflight(req.method, req.headers)) {
        const allow = allowedMethods(req.path) ?? 'GET, HEAD, POST, OPTIONS';
        report = world.limiter.peek(addressBucket(req.remoteAddress), world.settings.anonymousLimits, now);
        outcome = { status: 204, headers: preflightHeaders(allow, req.headers), reason: 'CORS preflight' };
        return this.finish(req, world, outcome, undefined, report, started);
      }
      const where = route(req.method, req.path);
      auth = authenticate(req.headers, req.rawHeaders, world.keys, req.query);
      const bucket = auth.ok ? this.bucketOfKey(auth.key.key) : addressBucket(req.remoteAddress);
      const limits = auth.ok ? auth.key.limits : world.settings.anonymousLimits;
      if (where.kind === 'operation' && where.operation === 'getPet') extraHeaders = { ...deprecationHeaders(world.settings.deprecation) };

      if (where.kind === 'document' || where.kind === 'options') {
        report = world.limiter.peek(bucket, limits, now);
        outcome = where.kind === 'document'
          ? { status: 200, body: this.documentBody, reason: 'served the OpenAPI document' }
          : { status: 204, headers: { Allow: where.allow }, reason: 'OPTIONS' };
        return this.finish(req, world, outcome, auth, report, started, extraHeaders);
      }

      const early = earlyError(where, world, now, auth);
      const decision: RateDecision = world.limiter.take(bucket, limits, now, early === undefined);
      report = decision.report;
      if (early) throw early;
      if (decision.outcome !== 'allowed') throw limitError(decision, auth.ok ? auth.key.key : undefined);
      if (where.kind !== 'operation') throw new Error('unreachable: early checks pass only operations');

      forced = world.runtime?.intercept(where.operation, req.method, req.path);
      if (forced?.status === 429) world.limiter.refund(bucket, now);
      outcome = forced ? forcedOutcome(forced, now) : runOperation(where.operation, world, req, where.petId);
    } catch (error) {
      outcome = toOutcome(error);
    }
    if (forced?.fault) outcome.fault = forced.fault;
    const delayMs = world.runtime?.latency() ?? 0;
    if (delayMs > 0) outcome.delayMs = delayMs;
    return this.finish(req, world, outcome, auth, report, started, extraHeaders, now);
  }

  /** Answers a request the adapter refused before the checks (a 414), with the usual headers. */
  refuse(req: CoreRequest, error: MockError): CoreResponse {
    let world: World;
    try {
      world = this.sessions.resolve(req.headers['x-mock-session']);
    } catch {
      world = this.sessions.defaultWorld;
    }
    return this.finish(req, world, toOutcome(error), undefined, undefined, this.monotonic());
  }

  /** The rate-limit headers of a client without a key, for answers given outside the pipeline (431). */
  anonymousRateHeaders(address: string | undefined): Record<string, string> {
    const world = this.sessions.defaultWorld;
    return rateHeaders(withoutRetry(world.limiter.peek(addressBucket(address), world.settings.anonymousLimits, world.clock.now())));
  }

  private finish(
    req: CoreRequest,
    world: World,
    outcome: Outcome,
    auth: AuthResult | undefined,
    report: RateReport | undefined,
    started: number,
    extraHeaders?: Record<string, string>,
    checkedAt?: number,
  ): CoreResponse {
    // nosniff: a browser must never read an answer that echoes input as anything but JSON.
    const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
    if (outcome.body !== undefined) headers['Content-Type'] = JSON_TYPE;
    const now = checkedAt ?? world.clock.now();
    const shown = report ?? world.limiter.peek(addressBucket(req.remoteAddress), world.settings.anonymousLimits, now);
    setRateHeaders(headers, shown, outcome.status === 429);
    if (extraHeaders) Object.assign(headers, extraHeaders);
    if (outcome.headers) Object.assign(headers, outcome.headers);
    addCorsHeaders(headers, req.headers);
    const session = req.headers['x-mock-session'];
    if (typeof session === 'string' && world.id !== 'default') headers['X-Mock-Session'] = world.id;

    const entry: JournalEntry = {
      seq: world.journal.nextSeq(),
      at: isoTime(now),
      session: world.id,
      method: req.method,
      path: req.path,
      query: redactQuery(req.query),
      status: outcome.status,
      reason: outcome.reason,
      durationMs: Math.round((this.monotonic() - started) * 1000) / 1000,
    };
    if (outcome.code) entry.code = outcome.code;
    if (auth?.ok) entry.key = this.redacted(auth.key.key);
    if (outcome.fault) entry.fault = outcome.fault;
    if (outcome.delayMs) entry.delayMs = outcome.delayMs;
    world.journal.add(entry);
    this.onRequest?.(entry);

    const response: CoreResponse = { status: outcome.status, headers };
    if (outcome.body !== undefined) response.body = outcome.body;
    if (outcome.fault) response.fault = outcome.fault;
    if (outcome.delayMs) response.delayMs = outcome.delayMs;
    return response;
  }
}

function withoutRetry(report: RateReport): RateReport {
  if (report.retryAfter === undefined) return report;
  return { limit: report.limit, remaining: report.remaining, reset: report.reset };
}

/** The checks before the rate limit: route, removal date, auth. */
export function earlyError(where: Route, world: Pick<World, 'settings'>, now: number, auth: AuthResult): MockError | undefined {
  switch (where.kind) {
    case 'not-found':
      return new MockError('route_not_found', 'No operation lives at this path. The API has GET and POST /v1/pets and GET /v1/pets/{petId}; paths are case-sensitive with no trailing slash.');
    case 'method-not-allowed':
      return new MockError('method_not_allowed', `This path does not answer that method; it answers ${where.allow}.`, { headers: { Allow: where.allow } });
    case 'not-implemented':
      return new MockError('not_implemented', 'petstore-mock does not implement store orders: the specification mentions them but does not define their method, path or payloads.');
    default:
      break;
  }
  if (where.kind === 'operation' && where.operation === 'getPet' && now >= world.settings.deprecation.removalAt) {
    const removed = new Date(world.settings.deprecation.removalAt).toISOString();
    return new MockError('endpoint_removed', `GET /v1/pets/{petId} was removed on ${removed}. Use GET /v1/pets with the status filter instead.`);
  }
  if (!auth.ok) return auth.error;
  return undefined;
}

export function limitError(decision: Exclude<RateDecision, { outcome: 'allowed' }>, key: string | undefined): MockError {
  const retry = decision.report.retryAfter ?? 1;
  if (decision.outcome === 'banned') {
    const until = new Date(decision.bannedUntil).toISOString();
    return new MockError('key_banned', `The API key ${key ? redactKey(key) : ''} is temporarily banned until ${until} for sending requests while rate limited. Retry after ${retry} s and back off exponentially.`);
  }
  const which = decision.window === 'minute' ? 'per-minute' : 'per-day';
  return new MockError('rate_limited', `The ${which} rate limit of ${decision.report.limit} requests is used up. Retry after ${retry} s; requests sent while limited can get the key banned.`);
}

/** A scenario's forced answer: still a valid answer of the API, with the headers its status needs. */
export function forcedOutcome(forced: ForcedAnswer, now: number): Outcome {
  const message = forced.message ?? `A scenario forced this ${forced.status} answer (${forced.reason}).`;
  const headers: Record<string, string> = {};
  if (forced.status === 401) headers['WWW-Authenticate'] = WWW_AUTHENTICATE_INVALID;
  if (forced.retryAfter !== undefined) {
    headers['Retry-After'] = String(forced.retryAfter);
    // A 429's reset must agree with its Retry-After, whatever the real windows say.
    if (forced.status === 429) {
      headers['X-RateLimit-Remaining'] = '0';
      headers['X-RateLimit-Reset'] = String(Math.ceil(now / 1000) + forced.retryAfter);
    }
  }
  return { status: forced.status, body: errorBody(forced.code, message, forced.status), code: forced.code, reason: forced.reason, headers };
}

export function toOutcome(error: unknown): Outcome {
  if (error instanceof MockError) {
    return { status: error.status, body: errorBody(error.code, error.message, error.status, error.details), headers: error.headers, code: error.code, reason: error.message };
  }
  const message = internalErrorMessage(error);
  return { status: 500, body: errorBody('internal_error', message, 500), code: 'internal_error', reason: message };
}
