// The API path on a shared state. The checks that need no state run in TypeScript (redis-plan.ts);
// every decision about state is taken by one script call in Redis, which also carries the journal
// entries of earlier answers; the answer is built by core/pipeline/answer.ts, as in memory.
// test/redis/differential.test.ts holds the two homes of state to the same answers.
import { addCorsHeaders, preflightHeaders } from '../core/pipeline/cors.js';
import { answerHeaders, journalEntryOf, responseOf, type AnswerParts } from '../core/pipeline/answer.js';
import { earlyError, forcedOutcome, limitError, toOutcome, type Outcome } from '../core/pipeline/outcome.js';
import { authenticate, redactKey, redactQuery } from '../core/pipeline/auth.js';
import { route } from '../core/pipeline/router.js';
import { openapiDocument } from '../core/input/openapi.js';
import { COMMON_HEADERS, MockError, named } from '../core/errors.js';
import { DEFAULT_JOURNAL_BYTES, boundEntry, type JournalEntry } from '../core/state/journal.js';
import { rateHeaders, setRateHeaders, type RateReport } from '../core/state/limiter.js';
import { httpDate } from '../core/state/clock.js';
import { sessionIdOf, DEFAULT_SESSION } from '../core/state/sessions.js';
import { storeFullError } from '../core/state/store.js';
import { addressBucket, type ForcedAnswer } from '../core/state/world.js';
import type { ApiCore } from '../core/state/backend.js';
import type { CoreRequest, CoreResponse } from '../core/types.js';
import type { StateConnection } from './connection.js';
import { decisionOf, forcedOf, latencyOf, type Decided } from './redis-decision.js';
import { peekPlan, planRequest, type Plan } from './redis-plan.js';
import type { SettingsEntry, SettingsRegistry } from './settings-registry.js';

/** A journal entry on its way to Redis, as the scripts' `appendJournal` takes it. */
interface PendingEntry {
  sid: string;
  seq: number;
  ep: string;
  entry: string;
  bytes: number;
  cap: number;
  maxBytes: number;
}

/** The `ApiCore` of instances sharing one Redis. */
export class RedisEngine implements ApiCore {
  private readonly documentBody = JSON.stringify(openapiDocument);
  /** The last report of each client address, for `anonymousRateHeaders`. */
  private readonly anonymousReports = new Map<string, RateReport>();
  private lastLostReport = 0;
  /** Entries of answered requests that ride with the next script call (or a flush when none comes). */
  private pending: PendingEntry[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly conn: StateConnection,
    private readonly prefix: string,
    private readonly registry: SettingsRegistry,
    private readonly maxSessions: number,
    private readonly register: () => Promise<void>,
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
    const limits = this.registry.start.settings.anonymousLimits;
    const report = known ?? { limit: limits.perMinute, remaining: limits.perMinute, reset: (Math.floor(Date.now() / 60_000) + 1) * 60 };
    const headers = rateHeaders({ limit: report.limit, remaining: report.remaining, reset: report.reset });
    headers.Date = httpDate(Date.now());
    return headers;
  }

  /** Sends the journal entries no request has carried yet; the engine's owner calls it before closing. */
  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    await this.conn.run('petJournal', `${this.prefix}:s:${batch[0]?.sid ?? DEFAULT_SESSION}`, [this.prefix, JSON.stringify(batch)]).catch((error: unknown) => {
      this.journalLost(error);
    });
  }

  /** Runs the request against Redis; `fixed` is an answer decided before the checks (invalid session, 414). */
  private async answer(req: CoreRequest, sid: string, started: number, fixed?: Outcome): Promise<CoreResponse> {
    try {
      let entry = this.registry.guess(sid);
      for (let attempt = 0; ; attempt++) {
        const plan = fixed ? peekPlan(req, entry) : planRequest(req, entry);
        const journal = this.pending;
        this.pending = [];
        const input = { ...plan.input, sid, set: entry.id, max: this.maxSessions, journal };
        let raw: unknown;
        try {
          raw = await this.conn.run('petApi', `${this.prefix}:s:${sid}`, [this.prefix, JSON.stringify(input)]);
        } catch (error) {
          if (journal.length > 0) this.journalLost(error);
          throw error;
        }
        const decided = JSON.parse(String(raw)) as Decided;
        if (decided.st === 'ok') return this.complete(req, sid, entry, plan, decided, started, fixed);
        if (attempt >= 3) throw new Error(named(`the shared state kept changing under request ${req.method} ${req.path}`));
        if (decided.st === 'stale') entry = await this.registry.seen(sid, String(decided.set));
        else await this.register();
      }
    } catch (error) {
      // A 503 when Redis cannot answer (never an answer from local memory), a 500 for a bug.
      return this.respond(req, sid, toOutcome(error), started);
    }
  }

  private complete(req: CoreRequest, sid: string, entry: SettingsEntry, plan: Plan, d: Decided, started: number, fixed?: Outcome): CoreResponse {
    const s = entry.settings;
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
      parts.outcome = this.operation(req, entry, plan, d, parts);
    }
    return this.finish(parts, d, entry, started);
  }

  /** The operation step, after the checks, from what the script decided and read. */
  private operation(req: CoreRequest, entry: SettingsEntry, plan: Plan, d: Decided, parts: AnswerParts): Outcome {
    const auth = plan.auth;
    let outcome: Outcome;
    let forced: ForcedAnswer | undefined;
    try {
      const early = auth ? earlyError(route(req.method, req.path), entry, parts.now, auth) : undefined;
      const decision = decisionOf(d.decision, entry.settings.ban.inFlight);
      if (early) throw early;
      if (decision.outcome !== 'allowed') {
        if (auth?.ok) parts.ban = decision.ban;
        throw limitError(decision, auth?.ok ? auth.key.key : undefined);
      }
      forced = forcedOf(entry, d);
      if (forced) outcome = forcedOutcome(forced, parts.now);
      else if (plan.inputError !== undefined) throw plan.inputError;
      else outcome = operationOutcome(entry, plan, d);
    } catch (error) {
      outcome = toOutcome(error);
    }
    if (forced?.fault) outcome.fault = forced.fault;
    const delayMs = latencyOf(entry, d);
    if (delayMs > 0) outcome.delayMs = delayMs;
    return outcome;
  }

  /** Says once in a while that journal entries were lost: the answers were given, the record of them is missing. */
  private journalLost(error: unknown): void {
    const now = Date.now();
    if (now - this.lastLostReport < 10_000) return;
    this.lastLostReport = now;
    process.stderr.write(
      `${named(`a journal entry could not be written to the shared state (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); the answer was given, GET /__admin/requests will miss it.`)}\n`,
    );
  }

  /** The answer, and its journal entry queued for the next script call. */
  private finish(parts: AnswerParts, d: Decided, entry: SettingsEntry, started: number): CoreResponse {
    const headers = answerHeaders(parts);
    const journal = journalEntryOf(parts, headers, d.seq, Math.round((performance.now() - started) * 1000) / 1000);
    const bytes = boundEntry(journal);
    this.pending.push({
      sid: parts.session,
      seq: d.seq,
      ep: d.ep,
      entry: JSON.stringify(journal),
      bytes,
      cap: entry.settings.journalSize,
      maxBytes: DEFAULT_JOURNAL_BYTES,
    });
    // Under load the next request carries it; when none comes soon, a flush of its own does.
    this.flushTimer ??= setTimeout(() => void this.flush(), 2);
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
    const entry = this.registry.guess(sid);
    const auth = authenticate(req.headers, req.rawHeaders, entry.keys, req.query);
    const retry = Number(outcome.headers?.['Retry-After'] ?? 1);
    setRateHeaders(
      headers,
      { limit: auth.ok ? auth.key.limits.perMinute : entry.settings.anonymousLimits.perMinute, remaining: 0, reset: Math.ceil(Date.now() / 1000) + retry },
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
function operationOutcome(entry: SettingsEntry, plan: Plan, d: Decided): Outcome {
  const base = entry.settings.base;
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
