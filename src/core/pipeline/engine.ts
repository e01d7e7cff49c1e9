import { httpDate, type TimeSource } from '../state/clock.js';
import { isPreflight, preflightHeaders } from './cors.js';
import { deprecationHeaders } from './deprecation.js';
import { MockError } from '../errors.js';
import { authenticate, redactKey, type AuthResult } from './auth.js';
import type { JournalEntry } from '../state/journal.js';
import { rateHeaders, type BanCount, type RateDecision, type RateReport } from '../state/limiter.js';
import { answerHeaders, journalEntryOf, responseOf, type AnswerParts } from './answer.js';
import { earlyError, forcedOutcome, limitError, toOutcome, type Outcome } from './outcome.js';
import { openapiDocument } from '../input/openapi.js';
import { answeredBeforeBody } from './before-body.js';
import { runOperation } from './operations.js';
import { allowedMethods, route } from './router.js';
import { SessionRegistry } from '../state/sessions.js';
import type { ApiCore } from '../state/backend.js';
import type { CoreRequest, CoreResponse } from '../types.js';
import { addressBucket, keyBucket, type ForcedAnswer, type World, type WorldSettings } from '../state/world.js';

export type { Outcome } from './outcome.js';

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

/** One request on its way through the pipeline: what the checks have found so far. */
interface RequestContext {
  readonly req: CoreRequest;
  readonly world: World;
  /** The monotonic instant the core took the request, for the journal's duration. */
  readonly started: number;
  /** The session clock's instant, read once per request. */
  readonly now: number;
  /** Why the session header could not be used; the request is answered with it at once. */
  readonly failure?: unknown;
  auth?: AuthResult;
  /** The rate-limit report the answer shows (the default is the client address's). */
  report?: RateReport;
  /** Headers every answer of the operation carries (deprecation, on getPet). */
  extraHeaders?: Record<string, string>;
  /** Whether a valid key's refusal counted toward a ban, for the journal. */
  ban?: BanCount;
}

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
    const ctx = this.begin(req);
    if (ctx.failure !== undefined) return this.finish(ctx, toOutcome(ctx.failure));
    const { world } = ctx;
    let outcome: Outcome;
    let forced: ForcedAnswer | undefined;
    try {
      const now = ctx.now;
      if (isPreflight(req.method, req.headers)) {
        const allow = allowedMethods(req.path) ?? 'GET, HEAD, POST, OPTIONS';
        ctx.report = world.limiter.peek(addressBucket(req.remoteAddress), world.settings.anonymousLimits, now);
        return this.finish(ctx, { status: 204, headers: preflightHeaders(allow, req.headers), reason: 'CORS preflight' });
      }
      const where = route(req.method, req.path);
      const auth = authenticate(req.headers, req.rawHeaders, world.keys, req.query);
      ctx.auth = auth;
      const bucket = auth.ok ? this.bucketOfKey(auth.key.key) : addressBucket(req.remoteAddress);
      const limits = auth.ok ? auth.key.limits : world.settings.anonymousLimits;
      if (where.kind === 'operation' && where.operation === 'getPet') ctx.extraHeaders = { ...deprecationHeaders(world.settings.deprecation) };

      if (where.kind === 'document' || where.kind === 'options') {
        ctx.report = world.limiter.peek(bucket, limits, now);
        outcome =
          where.kind === 'document'
            ? { status: 200, body: this.documentBody, reason: 'served the OpenAPI document' }
            : { status: 204, headers: { Allow: where.allow }, reason: 'OPTIONS' };
        return this.finish(ctx, outcome);
      }

      const early = earlyError(where, world, now, auth);
      const decision: RateDecision = world.limiter.take(bucket, limits, now, early === undefined);
      ctx.report = decision.report;
      if (early) throw early;
      if (decision.outcome !== 'allowed') {
        if (auth.ok) ctx.ban = decision.ban;
        throw limitError(decision, auth.ok ? auth.key.key : undefined);
      }
      if (where.kind !== 'operation') throw new Error('unreachable: early checks pass only operations');

      forced = world.runtime?.intercept(where.operation, req, auth.ok ? auth.key.key : undefined);
      if (forced?.status === 429) world.limiter.refund(bucket, now);
      outcome = forced ? forcedOutcome(forced, now) : runOperation(where.operation, world, req, where.petId);
    } catch (error) {
      outcome = toOutcome(error);
    }
    if (forced?.fault) outcome.fault = forced.fault;
    const delayMs = world.runtime?.latency() ?? 0;
    if (delayMs > 0) outcome.delayMs = delayMs;
    return this.finish(ctx, outcome);
  }

  /**
   * Whether the request's head settles its answer (`Expect: 100-continue`): then `handle` gives the
   * final answer without the body. Counts nothing; the answer itself is counted by `handle`.
   */
  answeredBeforeBody(req: CoreRequest): boolean {
    let world: World;
    try {
      world = this.sessions.resolve(req.headers['x-mock-session']);
    } catch {
      return true;
    }
    return answeredBeforeBody(world, req, world.clock.now());
  }

  /** Answers a request the adapter refused before the checks (a 414), with the usual headers. */
  refuse(req: CoreRequest, error: MockError): CoreResponse {
    return this.finish(this.begin(req), toOutcome(error));
  }

  /** The Date and rate-limit headers of a client without a key, for answers given outside the pipeline (431). */
  anonymousRateHeaders(address: string | undefined): Record<string, string> {
    const world = this.sessions.defaultWorld;
    const now = world.clock.now();
    const headers = rateHeaders(withoutRetry(world.limiter.peek(addressBucket(address), world.settings.anonymousLimits, now)));
    headers.Date = httpDate(now);
    return headers;
  }

  /**
   * Starts a request's context: its session (the default one when the header is unusable, with
   * the reason kept as `failure`) and the one reading of that session's clock.
   */
  private begin(req: CoreRequest): RequestContext {
    const started = this.monotonic();
    let world: World;
    let failure: unknown;
    try {
      world = this.sessions.resolve(req.headers['x-mock-session']);
    } catch (error) {
      world = this.sessions.defaultWorld;
      failure = error;
    }
    // Read once: the checks, the answer's headers and the journal entry all use this instant.
    return { req, world, started, now: world.clock.now(), failure };
  }

  /** Builds the answer of a request from its context and outcome, and journals it. */
  private finish(ctx: RequestContext, outcome: Outcome): CoreResponse {
    const { req, world, now } = ctx;
    const parts: AnswerParts = {
      req,
      session: world.id,
      now,
      real: world.clock.isReal ? now : world.clock.realTime(),
      shown: ctx.report ?? world.limiter.peek(addressBucket(req.remoteAddress), world.settings.anonymousLimits, now),
      outcome,
      key: ctx.auth?.ok ? this.redacted(ctx.auth.key.key) : undefined,
      extraHeaders: ctx.extraHeaders,
      evictedAt: world.evictedAt,
      ban: ctx.ban,
      details: world.journal.details,
    };
    // Once: this session's earlier world was dropped to make room, and it starts afresh here.
    world.evictedAt = undefined;
    const headers = answerHeaders(parts);
    const ended = this.monotonic();
    world.lastUsed = ended;
    const entry = journalEntryOf(parts, headers, world.journal.nextSeq(), Math.round((ended - ctx.started) * 1000) / 1000);
    world.journal.add(entry);
    this.onRequest?.(entry);
    return responseOf(outcome, headers);
  }
}

function withoutRetry(report: RateReport): RateReport {
  if (report.retryAfter === undefined) return report;
  return { limit: report.limit, remaining: report.remaining, reset: report.reset };
}
