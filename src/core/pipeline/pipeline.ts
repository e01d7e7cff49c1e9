// The one pipeline of an API request, for every home of state:
//   the stages of stages.ts (route → removal date → auth → ban and rate limit → scenario step →
//   media type → size → validation → operation), then the answer. The checks that need no state run in plan.ts; the home is asked once through its port; the
// answer and its journal entry are built by answer.ts. A home that decides at once (memory) gets a
// synchronous answer; one that answers with a promise (Redis) gets a promise.
import { addCorsHeaders, preflightHeaders } from './cors.js';
import { answerHeaders, journalEntryOf, responseOf, type AnswerParts } from './answer.js';
import { toOutcome, type Outcome } from './outcome.js';
import { DECIDED_INDEXES, STAGE_INDEX, STAGES, type Plan, type Stage } from './stages.js';
import { authenticate, redactQuery } from './auth.js';
import { fixedPlan, keysOf, planRequest } from './plan.js';
import { documentOutcome } from './served-document.js';
import { andThen } from '../maybe.js';
import { COMMON_HEADERS, MockError } from '../errors.js';
import type { JournalEntry } from '../state/journal.js';
import { rateHeaders, setNoStateRateHeaders } from '../state/limiter.js';
import { httpDate } from '../state/clock.js';
import { DEFAULT_SESSION, sessionIdOf } from '../state/sessions.js';
import type { Decision, OperationData, StateAsk, StatePort } from '../state/state-port.js';
import { answerIndex, type DeclaredOperation } from '../scenarios/declared-operations.js';
import { SPEC_MODULES } from '../operations/index.js';
import type { ApiHandler } from '../state/backend.js';
import type { CoreRequest, CoreResponse, PlanName } from '../types.js';

/** `performance.now()`'s zero in epoch milliseconds; fixed for the life of the process. */
const TIME_ORIGIN = performance.timeOrigin;

/** Records when the request arrived (real time) and how long it waited for the core, to the microsecond. */
function noteArrival(entry: JournalEntry, arrival: number, started: number): void {
  entry.arrivalMs = Math.round((TIME_ORIGIN + arrival) * 1000) / 1000;
  const queued = Math.round((started - arrival) * 1000) / 1000;
  if (queued > 0) entry.queuedMs = queued;
}

/** An operation's answer from its module (core/operations); a refusal of the store or an unknown id is thrown as MockError. */
function operationOutcome(plan: StateAsk, data: OperationData | undefined): Outcome {
  if (data !== undefined && 'error' in data) throw data.error;
  if (plan.operation === undefined) throw new Error('unreachable: an answer of an operation is asked only when one ran');
  return SPEC_MODULES[plan.operation].outcome(plan.input, data);
}

/** A declared operation's answer for its call numbered `call` (from 0): the answers in order, the last repeating. */
function declaredOutcome(op: DeclaredOperation, call: number): Outcome {
  const index = answerIndex(op, call);
  const answer = op.answers[index];
  if (answer === undefined) throw new Error(`unreachable: declared operation ${op.operationId} has no answers`);
  const outcome: Outcome = { status: answer.status, reason: `declared ${op.operationId}, answer ${index + 1} of ${op.answers.length}` };
  if (answer.body !== undefined) outcome.body = answer.body;
  if (answer.headers !== undefined) outcome.headers = { ...answer.headers };
  return outcome;
}

/** Answers API requests against one home of state (`H` is the home's handle of a session). */
export class Pipeline<H> implements ApiHandler {
  constructor(
    protected readonly port: StatePort<H>,
    /** Told each answer's entry, the plan of its valid key and whether it started a ban (for the metrics). */
    private readonly onRequest?: (entry: JournalEntry, plan?: PlanName, banStarted?: boolean) => void,
  ) {}

  /** Answers one API request. Never throws or rejects: a failure becomes an Error body. */
  handle(req: CoreRequest): CoreResponse | Promise<CoreResponse> {
    const started = performance.now();
    let sid: string;
    try {
      sid = sessionIdOf(req.headers['x-mock-session']);
    } catch (error) {
      // An unusable session id is answered from the default session.
      return this.ask(req, DEFAULT_SESSION, started, toOutcome(error));
    }
    return this.ask(req, sid, started);
  }

  /** Answers a request the adapter refused before the checks (a 414), with the usual headers. */
  refuse(req: CoreRequest, error: MockError): CoreResponse | Promise<CoreResponse> {
    let sid = DEFAULT_SESSION;
    try {
      sid = sessionIdOf(req.headers['x-mock-session']);
    } catch {
      // As for any request: an unusable session id answers from the default session.
    }
    return this.ask(req, sid, performance.now(), toOutcome(error));
  }

  /** The Date and rate-limit headers of a client without a key, for answers given outside the pipeline (431). */
  anonymousRateHeaders(address: string | undefined): Record<string, string> {
    const { report, now } = this.port.anonymousReport(address);
    const headers = rateHeaders({ limit: report.limit, remaining: report.remaining, reset: report.reset });
    headers.Date = httpDate(now);
    return headers;
  }

  /** Asks the home; `fixed` is an answer decided before the checks. */
  private ask(req: CoreRequest, sid: string, started: number, fixed?: Outcome): CoreResponse | Promise<CoreResponse> {
    let decided;
    try {
      decided = this.port.decide(sid, req, fixed ? fixedPlan : planRequest);
    } catch (error) {
      return this.unavailable(req, sid, toOutcome(error), started);
    }
    return andThen(
      decided,
      (d) => this.complete(req, d, started, fixed),
      // A 503 when the home cannot answer (never an answer from this instance's memory), a 500 for a bug.
      (error: unknown) => this.unavailable(req, sid, toOutcome(error), started),
    );
  }

  private complete(req: CoreRequest, d: Decision<H, Plan>, started: number, fixed?: Outcome): CoreResponse {
    try {
      const { plan } = d;
      const parts: AnswerParts = {
        req,
        session: d.session,
        now: d.now,
        real: d.real,
        shown: d.rate.report,
        outcome: fixed ?? documentOutcome(d.settings),
        key: plan.shownKey,
        keyId: plan.key !== undefined ? this.port.keyIds.of(plan.key) : undefined,
        extraHeaders: plan.extraHeaders,
        evictedAt: d.evictedAt,
        details: d.details,
        retryAfterForm: d.settings.retryAfterFormat,
      };
      if (plan.kind === 'preflight') parts.outcome = { status: 204, headers: preflightHeaders(plan.allow ?? '', req.headers), reason: 'CORS preflight' };
      else if (plan.kind === 'options') parts.outcome = { status: 204, headers: { Allow: plan.allow ?? '' }, reason: 'OPTIONS' };
      else if (plan.kind === 'api') parts.outcome = this.operation(d, parts);
      const headers = answerHeaders(parts);
      // One clock read gives the duration and the session's last use.
      const answeredAt = performance.now();
      const entry = journalEntryOf(parts, headers, d.seq, Math.round((answeredAt - started) * 1000) / 1000);
      noteArrival(entry, req.arrival ?? started, started);
      if (req.connection !== undefined) entry.connection = req.connection;
      if (req.connectionUse !== undefined) entry.connectionUse = req.connectionUse;
      this.port.record(d, entry, answeredAt);
      if (this.onRequest) {
        const auth = plan.auth;
        this.onRequest(entry, auth?.ok === true ? auth.key.plan : undefined, d.rate.outcome === 'banned' && d.rate.justBanned);
      }
      return responseOf(parts.outcome, headers);
    } catch (error) {
      return this.unavailable(req, d.session, toOutcome(error), started);
    }
  }

  /** The stages in their order, from what the plan found and the home decided; then the operation. */
  private operation(d: Decision<H, Plan>, parts: AnswerParts): Outcome {
    const { plan, forced } = d;
    let outcome: Outcome | undefined;
    try {
      // The stages in order up to the first that failed before the home; only those judged on the
      // decision are visited. One may decide the answer (a scenario's forced answer).
      const failedAt = plan.failed === undefined ? STAGES.length : STAGE_INDEX[plan.failed];
      for (let k = 0; k < DECIDED_INDEXES.length && outcome === undefined; k++) {
        const i = DECIDED_INDEXES[k] as number;
        if (i >= failedAt) break;
        const found = (STAGES[i] as Stage).decided?.(d, parts);
        if (found instanceof MockError) throw found;
        outcome = found;
      }
      if (outcome === undefined) {
        if (failedAt < STAGES.length) throw plan.failure;
        outcome = plan.where?.kind === 'declared' ? declaredOutcome(plan.where.operation, d.declaredCall ?? 0) : operationOutcome(plan, d.data);
      }
    } catch (error) {
      outcome = toOutcome(error);
    }
    if (forced?.fault) outcome.fault = forced.fault;
    if (d.latencyMs > 0) outcome.delayMs = d.latencyMs;
    return outcome;
  }

  /**
   * An answer without state (the home could not be asked): the Error body, CORS and the client's
   * rate headers with nothing left until its Retry-After; only the log sees it.
   */
  private unavailable(req: CoreRequest, sid: string, outcome: Outcome, started: number): CoreResponse {
    const headers: Record<string, string> = { Date: httpDate(Date.now()), ...COMMON_HEADERS, 'Content-Type': 'application/json' };
    const settings = this.port.guess(sid);
    const auth = authenticate(req.headers, req.rawHeaders, keysOf(settings), req.query);
    const retry = Number(outcome.headers?.['Retry-After'] ?? 1);
    setNoStateRateHeaders(headers, auth.ok ? auth.key.limits : settings.anonymousLimits, retry);
    if (outcome.headers) Object.assign(headers, outcome.headers);
    addCorsHeaders(headers, req.headers);
    this.onRequest?.(
      {
        seq: 0,
        at: new Date().toISOString(),
        session: sid,
        method: req.method,
        path: req.path,
        query: redactQuery(req.query),
        status: outcome.status,
        code: outcome.code,
        reason: outcome.reason,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      },
      auth.ok ? auth.key.plan : undefined,
    );
    return responseOf(outcome, headers);
  }
}
