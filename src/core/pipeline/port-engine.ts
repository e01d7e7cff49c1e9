// The pipeline for a home of state that is asked rather than held (Redis): the checks that need
// no state run here, every decision about state is one call of the home's port ("decide this
// request"), and the answer is built by answer.ts, as in memory. test/redis/differential.test.ts
// holds this and MockEngine to the same answers.
import { addCorsHeaders, preflightHeaders } from './cors.js';
import { answerHeaders, journalEntryOf, responseOf, type AnswerParts } from './answer.js';
import { earlyError, forcedOutcome, limitError, toOutcome, type Outcome } from './outcome.js';
import { authenticate, redactKey, redactQuery } from './auth.js';
import { route } from './router.js';
import { peekPlan, planRequest, preparedOf, type Plan } from './plan.js';
import { openapiDocument } from '../input/openapi.js';
import { COMMON_HEADERS, MockError } from '../errors.js';
import { DEFAULT_JOURNAL_BYTES, boundEntry, type JournalEntry } from '../state/journal.js';
import { rateHeaders, setRateHeaders, type RateReport } from '../state/limiter.js';
import { httpDate } from '../state/clock.js';
import { sessionIdOf, DEFAULT_SESSION } from '../state/sessions.js';
import { storeFullError } from '../state/store.js';
import { decisionOf, forcedOf, latencyOf, type Decided, type StatePort } from '../state/state-port.js';
import { addressBucket, type ForcedAnswer, type WorldSettings } from '../state/world.js';
import type { ApiCore } from '../state/backend.js';
import type { CoreRequest, CoreResponse } from '../types.js';

/** The `ApiCore` of a home of state behind a `StatePort`. */
export class PortEngine implements ApiCore {
  private readonly documentBody = JSON.stringify(openapiDocument);
  /** The last report of each client address, for `anonymousRateHeaders`. */
  private readonly anonymousReports = new Map<string, RateReport>();

  constructor(
    private readonly port: StatePort,
    private readonly onRequest?: (entry: JournalEntry) => void,
  ) {}

  async handle(req: CoreRequest): Promise<CoreResponse> {
    const started = performance.now();
    let sid: string;
    try {
      sid = sessionIdOf(req.headers['x-mock-session']);
    } catch (error) {
      return this.answer(req, DEFAULT_SESSION, started, toOutcome(error));
    }
    return this.answer(req, sid, started);
  }

  async refuse(req: CoreRequest, error: MockError): Promise<CoreResponse> {
    let sid = DEFAULT_SESSION;
    try {
      sid = sessionIdOf(req.headers['x-mock-session']);
    } catch {
      // As in memory: an unusable session id answers from the default session.
    }
    return this.answer(req, sid, performance.now(), toOutcome(error));
  }

  /**
   * Answers outside the pipeline (431) must answer at once, so they show the last report this
   * instance saw for the address, or a full window when it saw none.
   */
  anonymousRateHeaders(address: string | undefined): Record<string, string> {
    const known = this.anonymousReports.get(addressBucket(address));
    const limits = this.port.startSettings.anonymousLimits;
    const report = known ?? { limit: limits.perMinute, remaining: limits.perMinute, reset: (Math.floor(Date.now() / 60_000) + 1) * 60 };
    const headers = rateHeaders({ limit: report.limit, remaining: report.remaining, reset: report.reset });
    headers.Date = httpDate(Date.now());
    return headers;
  }

  /** Asks the home; `fixed` is an answer decided before the checks (invalid session, 414). */
  private async answer(req: CoreRequest, sid: string, started: number, fixed?: Outcome): Promise<CoreResponse> {
    try {
      let plan: Plan | undefined;
      const { settings, decided } = await this.port.decide(sid, (s) => {
        plan = fixed ? peekPlan(req, s) : planRequest(req, s);
        return plan.input;
      });
      if (!plan) throw new Error('unreachable: the port plans before it decides');
      return this.complete(req, sid, settings, plan, decided, started, fixed);
    } catch (error) {
      // A 503 when the home cannot answer (never an answer from local memory), a 500 for a bug.
      return this.respond(req, sid, toOutcome(error), started);
    }
  }

  private complete(req: CoreRequest, sid: string, s: WorldSettings, plan: Plan, d: Decided, started: number, fixed?: Outcome): CoreResponse {
    const now = Number(d.now);
    const decision = decisionOf(d.decision, s.ban.inFlight);
    const report = decision.report;
    if (plan.input.bucket.startsWith('addr:')) {
      if (this.anonymousReports.size >= 10_000) this.anonymousReports.clear();
      this.anonymousReports.set(plan.input.bucket, report);
    }
    const parts: AnswerParts = {
      req,
      session: sid,
      now,
      real: Number(d.real),
      shown: report,
      outcome: fixed ?? { status: 500, reason: '' },
      key: plan.auth?.ok ? redactKey(plan.auth.key.key) : undefined,
      extraHeaders: plan.extraHeaders,
      evictedAt: d.evicted ? new Date(Number(d.evicted)).toISOString() : undefined,
      details: d.details !== '' ? d.details === '1' : s.journalDetails === true,
    };
    if (fixed) {
      parts.key = undefined;
      parts.extraHeaders = undefined;
    } else if (plan.kind === 'preflight') {
      parts.outcome = { status: 204, headers: preflightHeaders(plan.allow ?? '', req.headers), reason: 'CORS preflight' };
    } else if (plan.kind === 'document') {
      parts.outcome = { status: 200, body: this.documentBody, reason: 'served the OpenAPI document' };
    } else if (plan.kind === 'options') {
      parts.outcome = { status: 204, headers: { Allow: plan.allow ?? '' }, reason: 'OPTIONS' };
    } else {
      parts.outcome = this.operation(req, s, plan, d, parts);
    }
    return this.finish(parts, d, s, started);
  }

  /** The operation step, after the checks, from what the script decided and read. */
  private operation(req: CoreRequest, s: WorldSettings, plan: Plan, d: Decided, parts: AnswerParts): Outcome {
    const auth = plan.auth;
    let outcome: Outcome;
    let forced: ForcedAnswer | undefined;
    try {
      const early = auth ? earlyError(route(req.method, req.path), { settings: s }, parts.now, auth) : undefined;
      const decision = decisionOf(d.decision, s.ban.inFlight);
      if (early) throw early;
      if (decision.outcome !== 'allowed') {
        if (auth?.ok) parts.ban = decision.ban;
        throw limitError(decision, auth?.ok ? auth.key.key : undefined);
      }
      forced = forcedOf(s, d);
      if (forced) outcome = forcedOutcome(forced, parts.now);
      else if (plan.inputError !== undefined) throw plan.inputError;
      else outcome = operationOutcome(s, plan, d);
    } catch (error) {
      outcome = toOutcome(error);
    }
    if (forced?.fault) outcome.fault = forced.fault;
    const delayMs = latencyOf(s, d);
    if (delayMs > 0) outcome.delayMs = delayMs;
    return outcome;
  }

  /** The answer, and its journal entry handed to the home. */
  private finish(parts: AnswerParts, d: Decided, s: WorldSettings, started: number): CoreResponse {
    const headers = answerHeaders(parts);
    const journal = journalEntryOf(parts, headers, d.seq, Math.round((performance.now() - started) * 1000) / 1000);
    const bytes = boundEntry(journal);
    this.port.record({ sid: parts.session, seq: d.seq, ep: d.ep, entry: JSON.stringify(journal), bytes, cap: s.journalSize, maxBytes: DEFAULT_JOURNAL_BYTES });
    this.onRequest?.(journal);
    return responseOf(parts.outcome, headers);
  }

  /**
   * An answer without state (Redis could not be asked): the Error body and CORS; only the log sees
   * it. Every answer carries the rate-limit headers, so this one reports the client's per-minute
   * limit with nothing left until its Retry-After, by this host's clock (the shared one is out of reach).
   */
  private respond(req: CoreRequest, sid: string, outcome: Outcome, started: number): CoreResponse {
    const headers: Record<string, string> = { Date: httpDate(Date.now()), ...COMMON_HEADERS, 'Content-Type': 'application/json' };
    const settings = this.port.guess(sid);
    const auth = authenticate(req.headers, req.rawHeaders, preparedOf(settings).keys, req.query);
    const retry = Number(outcome.headers?.['Retry-After'] ?? 1);
    setRateHeaders(
      headers,
      { limit: auth.ok ? auth.key.limits.perMinute : settings.anonymousLimits.perMinute, remaining: 0, reset: Math.ceil(Date.now() / 1000) + retry },
      false,
    );
    if (outcome.headers) Object.assign(headers, outcome.headers);
    addCorsHeaders(headers, req.headers);
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    this.onRequest?.({
      seq: 0,
      at: new Date().toISOString(),
      session: sid,
      method: req.method,
      path: req.path,
      query: redactQuery(req.query),
      status: outcome.status,
      code: outcome.code,
      reason: outcome.reason,
      durationMs,
    });
    return responseOf(outcome, headers);
  }
}

/** The operation's answer from the base (local) and what the script read or wrote. */
function operationOutcome(s: WorldSettings, plan: Plan, d: Decided): Outcome {
  const base = s.base;
  if (plan.list) {
    const { limit, status, inBase } = plan.list;
    const created = Array.isArray(d.data) ? d.data : [];
    const body =
      created.length === 0
        ? base.listBody(limit, status)
        : `[${[base.listBody(inBase, status).slice(1, -1), ...created].filter((part) => part !== '').join(',')}]`;
    return { status: 200, body, reason: `listed animals (limit ${limit}${status ? `, status ${status}` : ''})` };
  }
  if (plan.create) {
    if (d.full) throw storeFullError(d.full);
    const id = String(d.data);
    return { status: 201, body: `{"id":${id}${plan.create.tail}`, headers: { Location: `/v1/pets/${id}` }, reason: `created animal ${id}` };
  }
  const get = plan.get;
  const found = get?.pending ? (typeof d.data === 'string' ? d.data : undefined) : get?.found;
  if (!get || found === undefined) {
    throw new MockError('pet_not_found', `No animal has id ${get?.id}. List the animals with GET /v1/pets to find a valid id.`);
  }
  return { status: 200, body: found, reason: `found animal ${get.id}` };
}
