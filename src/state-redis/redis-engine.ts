// The API path on a shared state: the same checks, in the same order, as MockEngine.handle, with
// every decision about state taken by one script in Redis (one round trip) and the journal entry
// written by a second. test/redis/differential.test.ts holds the two engines to the same answers.
import { addCorsHeaders, isPreflight, preflightHeaders } from '../core/pipeline/cors.js';
import { deprecationHeaders } from '../core/pipeline/deprecation.js';
import { earlyError, forcedOutcome, limitError, toOutcome, type Outcome } from '../core/pipeline/engine.js';
import { authenticate, redactKey, redactQuery, type AuthResult } from '../core/pipeline/auth.js';
import { allowedMethods, route } from '../core/pipeline/router.js';
import { openapiDocument } from '../core/input/openapi.js';
import { readJsonBody } from '../core/input/body.js';
import { parseListQuery, parsePetId, validateNewPet } from '../core/input/validation.js';
import { forceAnswer, matches, stepName } from '../core/scenarios/scenario-runtime.js';
import { captureDetails } from '../core/state/journal-details.js';
import { addAuditFields } from '../core/audit/entry-fields.js';
import { COMMON_HEADERS, MockError, named } from '../core/errors.js';
import { isoTime, type JournalEntry } from '../core/state/journal.js';
import { BAN_GRACE_MS, rateHeaders, setRateHeaders, type RateDecision, type RateReport } from '../core/state/limiter.js';
import { httpDate } from '../core/state/clock.js';
import { sessionIdOf, DEFAULT_SESSION } from '../core/state/sessions.js';
import { petJson } from '../core/state/store.js';
import { addressBucket, keyBucket, type ForcedAnswer, type OperationId } from '../core/state/world.js';
import type { ApiCore } from '../core/state/backend.js';
import type { CoreRequest, CoreResponse, Limits, PetStatus } from '../core/types.js';
import type { Reply, StateConnection } from './connection.js';
import { answerCode, type SettingsEntry, type SettingsRegistry } from './settings-registry.js';

const JSON_TYPE = 'application/json';
const TWO_32 = 4294967296;

/** What the script is asked to do for one request, and what the answer needs afterwards. */
interface Plan {
  kind: 'peek' | 'preflight' | 'document' | 'options' | 'take';
  bucket: string;
  limits: Limits;
  auth?: AuthResult;
  extraHeaders?: Record<string, string>;
  args: (string | number)[];
  operation?: OperationId;
  /** The operation's input, or why it cannot run (thrown after the checks, as in memory). */
  input?: { list?: { limit: number; status?: PetStatus; inBase: number }; create?: true; get?: { found?: string; pending?: boolean; id: number | bigint } };
  inputError?: unknown;
  allow?: string;
}

/** The `ApiCore` of instances sharing one Redis. */
export class RedisEngine implements ApiCore {
  private readonly documentBody = JSON.stringify(openapiDocument);
  /** The last report of each client address, for `anonymousRateHeaders`. */
  private readonly anonymousReports = new Map<string, RateReport>();
  private lastLostReport = 0;

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

  /** Runs the request against Redis; `fixed` is an answer decided before the checks (invalid session, 414). */
  private async answer(req: CoreRequest, sid: string, started: number, fixed?: Outcome): Promise<CoreResponse> {
    try {
      let entry = this.registry.guess(sid);
      for (let attempt = 0; ; attempt++) {
        const plan = fixed ? this.peekPlan(req, entry) : this.plan(req, entry);
        const reply = await this.conn.run('petApi', `${this.prefix}:s:${sid}`, [this.prefix, sid, entry.id, this.maxSessions, ...plan.args]);
        if (reply[0] === 'ok') return await this.complete(req, sid, entry, plan, reply, started, fixed);
        if (attempt >= 3) throw new Error(named(`the shared state kept changing under request ${req.method} ${req.path}`));
        if (reply[0] === 'stale') entry = await this.registry.seen(sid, String(reply[1]));
        else await this.register();
      }
    } catch (error) {
      // A 503 when Redis cannot answer (never an answer from local memory), a 500 for a bug.
      return this.respond(req, sid, toOutcome(error), started);
    }
  }

  private peekPlan(req: CoreRequest, entry: SettingsEntry): Plan {
    const bucket = addressBucket(req.remoteAddress);
    const limits = entry.settings.anonymousLimits;
    return { kind: 'peek', bucket, limits, args: ['peek', bucket, limits.perMinute, limits.perDay] };
  }

  private plan(req: CoreRequest, entry: SettingsEntry): Plan {
    const s = entry.settings;
    if (isPreflight(req.method, req.headers))
      return { ...this.peekPlan(req, entry), kind: 'preflight', allow: allowedMethods(req.path) ?? 'GET, HEAD, POST, OPTIONS' };
    const where = route(req.method, req.path);
    const auth = authenticate(req.headers, req.rawHeaders, entry.keys, req.query);
    const bucket = auth.ok ? keyBucket(auth.key.key) : addressBucket(req.remoteAddress);
    const limits = auth.ok ? auth.key.limits : s.anonymousLimits;
    const extraHeaders = where.kind === 'operation' && where.operation === 'getPet' ? { ...deprecationHeaders(s.deprecation) } : undefined;
    if (where.kind === 'document' || where.kind === 'options') {
      return {
        kind: where.kind,
        bucket,
        limits,
        auth,
        extraHeaders,
        allow: where.kind === 'options' ? where.allow : undefined,
        args: ['peek', bucket, limits.perMinute, limits.perDay],
      };
    }
    // The removal date needs the clock, which only Redis knows: the script applies it ('G').
    const early = earlyError(where, { settings: { ...s, deprecation: { ...s.deprecation, removalAt: Infinity } } }, 0, auth);
    const isGet = where.kind === 'operation' && where.operation === 'getPet';
    const plan: Plan = { kind: 'take', bucket, limits, auth, extraHeaders, args: [] };
    let op = '';
    let arg1: string | number = '';
    let arg2: string | number = '';
    let codes = '';
    let chaos = '';
    let latency = '0';
    if (where.kind === 'operation' && early === undefined) {
      plan.operation = where.operation;
      op = 'none';
      try {
        if (where.operation === 'listPets') {
          const query = parseListQuery(req.query);
          const inBase = query.status ? (s.base.byStatus.get(query.status)?.length ?? 0) : s.base.all.length;
          plan.input = { list: { limit: query.limit, status: query.status, inBase } };
          op = 'list';
          arg1 = query.status ?? '';
          arg2 = Math.max(0, query.limit - inBase);
        } else if (where.operation === 'createPet') {
          const parsed = readJsonBody(req.headers, req.body, req.bodyTooLarge === true);
          const input = validateNewPet(parsed.value, parsed.hasBigInt);
          plan.input = { create: true };
          op = 'create';
          arg1 = input.status ?? '';
          arg2 = petJson({ id: 0, ...input }).slice('{"id":0'.length);
        } else {
          const id = parsePetId(where.petId ?? '');
          const inBase = entry.baseStore.get(id);
          plan.input = { get: { id, found: inBase ? petJson(inBase) : undefined } };
          if (typeof id === 'number' && id > s.base.maxId) {
            op = 'get';
            arg1 = id - (s.base.maxId + 1);
            plan.input.get = { id, pending: true };
          }
        }
      } catch (error) {
        plan.inputError = error;
      }
      const spec = s.runtimeSpec;
      if (spec) {
        const key = auth.ok ? auth.key.key : undefined;
        codes = spec.steps.map((step) => (matches(step.match, where.operation, req, key) ? answerCode(step.answer) : '-')).join('');
        if (spec.chaos && matches(spec.chaos.match, where.operation, req, key)) {
          chaos = spec.chaos.answers.map((a) => `${a.probability}:${answerCode(a.answer)}`).join(',');
        }
      }
    }
    const latencySpec = s.runtimeSpec?.latency;
    if (latencySpec && latencySpec.minMs !== latencySpec.maxMs) latency = '1';
    const enforce = early ? '0' : isGet ? 'G' : '1';
    plan.args = [
      'take',
      bucket,
      limits.perMinute,
      limits.perDay,
      enforce,
      s.deprecation.removalAt,
      s.ban.after,
      s.ban.durationMs,
      codes,
      entry.times,
      entry.repeat,
      chaos,
      latency,
      op,
      arg1,
      arg2,
      s.ban.graceMs ?? BAN_GRACE_MS,
    ];
    return plan;
  }

  private async complete(
    req: CoreRequest,
    sid: string,
    entry: SettingsEntry,
    plan: Plan,
    reply: Reply,
    started: number,
    fixed?: Outcome,
  ): Promise<CoreResponse> {
    const s = entry.settings;
    const now = Number(reply[1]);
    const report: RateReport = { limit: Number(reply[4]), remaining: Number(reply[5]), reset: Number(reply[6]) };
    if (Number(reply[7]) >= 0) report.retryAfter = Number(reply[7]);
    if (plan.bucket.startsWith('addr:')) {
      if (this.anonymousReports.size >= 10_000) this.anonymousReports.clear();
      this.anonymousReports.set(plan.bucket, report);
    }
    const override = String(reply[15] ?? '');
    const seq = Number(reply[16]);
    const epoch = String(reply[17]);
    const evicted = String(reply[18] ?? '');
    const real = Number(reply[19]);
    const details = override !== '' ? override === '1' : s.journalDetails === true;
    if (fixed) return this.finish(req, sid, entry, fixed, undefined, report, started, undefined, now, details, seq, epoch, evicted, real);
    if (plan.kind === 'preflight') {
      return this.finish(
        req,
        sid,
        entry,
        { status: 204, headers: preflightHeaders(plan.allow ?? '', req.headers), reason: 'CORS preflight' },
        undefined,
        report,
        started,
        undefined,
        now,
        details,
        seq,
        epoch,
        evicted,
        real,
      );
    }
    if (plan.kind === 'document' || plan.kind === 'options') {
      const outcome: Outcome =
        plan.kind === 'document'
          ? { status: 200, body: this.documentBody, reason: 'served the OpenAPI document' }
          : { status: 204, headers: { Allow: plan.allow ?? '' }, reason: 'OPTIONS' };
      return this.finish(req, sid, entry, outcome, plan.auth, report, started, plan.extraHeaders, now, details, seq, epoch, evicted, real);
    }
    const auth = plan.auth as AuthResult;
    let outcome: Outcome;
    let forced: ForcedAnswer | undefined;
    try {
      const early = earlyError(route(req.method, req.path), entry, now, auth);
      const decision = decisionOf(reply, report);
      if (early) throw early;
      if (decision.outcome !== 'allowed') throw limitError(decision, auth.ok ? auth.key.key : undefined);
      forced = this.forced(entry, reply);
      if (forced) outcome = forcedOutcome(forced, now);
      else if (plan.inputError !== undefined) throw plan.inputError;
      else outcome = operationOutcome(entry, plan, reply[14] ?? null);
    } catch (error) {
      outcome = toOutcome(error);
    }
    if (forced?.fault) outcome.fault = forced.fault;
    const latency = s.runtimeSpec?.latency;
    if (latency) {
      const delayMs =
        latency.minMs === latency.maxMs ? latency.minMs : latency.minMs + Math.floor((Number(reply[13]) / TWO_32) * (latency.maxMs - latency.minMs + 1));
      if (delayMs > 0) outcome.delayMs = delayMs;
    }
    return this.finish(req, sid, entry, outcome, auth, report, started, plan.extraHeaders, now, details, seq, epoch, evicted, real);
  }

  /** The answer a scenario forced, from the step or chaos draw the script took. */
  private forced(entry: SettingsEntry, reply: Reply): ForcedAnswer | undefined {
    const spec = entry.settings.runtimeSpec;
    if (!spec) return undefined;
    const index = Number(reply[10]);
    if (index >= 0) {
      const step = spec.steps[index];
      if (step === undefined)
        throw new Error(
          named(`the shared state names step ${index} of scenario ${spec.scenario}, which has ${spec.steps.length}; reset the session (POST /__admin/reset).`),
        );
      const nth = Number(reply[11]);
      return forceAnswer(spec.scenario, step.answer, stepName(index, nth, step.times));
    }
    const value = Number(reply[12]);
    if (value >= 0 && spec.chaos) {
      let draw = value / TWO_32;
      for (const { probability, answer } of spec.chaos.answers) {
        if (draw < probability) return forceAnswer(spec.scenario, answer, 'chaos');
        draw -= probability;
      }
    }
    return undefined;
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

  /** Headers and journal as MockEngine.finish writes them; the entry follows the decision to Redis. */
  private finish(
    req: CoreRequest,
    sid: string,
    entry: SettingsEntry,
    outcome: Outcome,
    auth: AuthResult | undefined,
    shown: RateReport,
    started: number,
    extraHeaders: Record<string, string> | undefined,
    now: number,
    details: boolean,
    seq: number,
    epoch: string,
    evicted: string,
    real: number,
  ): CoreResponse {
    // As in MockEngine.finish: Date on the session's clock, first.
    const headers: Record<string, string> = { Date: httpDate(now), ...COMMON_HEADERS };
    if (outcome.body !== undefined) headers['Content-Type'] = JSON_TYPE;
    setRateHeaders(headers, shown, outcome.status === 429);
    if (extraHeaders) Object.assign(headers, extraHeaders);
    if (outcome.headers) Object.assign(headers, outcome.headers);
    addCorsHeaders(headers, req.headers);
    if (typeof req.headers['x-mock-session'] === 'string' && sid !== DEFAULT_SESSION) headers['X-Mock-Session'] = sid;
    if (evicted !== '') headers['X-Mock-Session-Evicted'] = new Date(Number(evicted)).toISOString();

    const journal: Omit<JournalEntry, 'seq'> = {
      at: isoTime(now),
      session: sid,
      method: req.method,
      path: req.path,
      query: redactQuery(req.query),
      status: outcome.status,
      reason: outcome.reason,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    };
    if (outcome.code) journal.code = outcome.code;
    if (real !== now) journal.realAt = new Date(real).toISOString();
    if (auth?.ok) journal.key = redactKey(auth.key.key);
    if (outcome.fault) journal.fault = outcome.fault;
    if (outcome.delayMs) journal.delayMs = outcome.delayMs;
    addAuditFields(journal, req, headers);
    if (details) journal.details = captureDetails(req, headers, outcome.body);
    // Sent without waiting: the answer needs one round trip. Journal reads wait for entries on their way.
    this.conn
      .run('petJournal', `${this.prefix}:s:${sid}`, [this.prefix, sid, seq, epoch, JSON.stringify(journal).slice(1), entry.settings.journalSize])
      .catch((error: unknown) => this.journalLost(error));
    this.onRequest?.({ seq, ...journal });
    return this.response(outcome, headers);
  }

  /**
   * An answer without state (Redis could not be asked): the Error body and CORS; only the log sees
   * it. Every answer carries the rate-limit headers, so this one reports the client's per-minute
   * limit with nothing left until its Retry-After, by this host's clock (the shared one is out of reach).
   */
  private respond(req: CoreRequest, sid: string, outcome: Outcome, started: number): CoreResponse {
    const headers: Record<string, string> = { Date: httpDate(Date.now()), ...COMMON_HEADERS, 'Content-Type': JSON_TYPE };
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
    return this.response(outcome, headers);
  }

  private response(outcome: Outcome, headers: Record<string, string>): CoreResponse {
    const response: CoreResponse = { status: outcome.status, headers };
    if (outcome.body !== undefined) response.body = outcome.body;
    if (outcome.fault) response.fault = outcome.fault;
    if (outcome.delayMs) response.delayMs = outcome.delayMs;
    return response;
  }
}

function decisionOf(reply: Reply, report: RateReport): RateDecision {
  switch (reply[2]) {
    case 'a':
      return { outcome: 'allowed', report };
    case 'b':
      return { outcome: 'banned', report, bannedUntil: Number(reply[8]), justBanned: Number(reply[9]) === 1 };
    default:
      return { outcome: 'limited', window: reply[3] === 'd' ? 'day' : 'minute', report };
  }
}

/** The operation's answer from the base (local) and what the script read or wrote. */
function operationOutcome(entry: SettingsEntry, plan: Plan, data: Reply[number]): Outcome {
  const base = entry.settings.base;
  const input = plan.input;
  if (input?.list) {
    const { limit, status, inBase } = input.list;
    const created = Array.isArray(data) ? (data as string[]) : [];
    const body =
      created.length === 0
        ? base.listBody(limit, status)
        : `[${[base.listBody(inBase, status).slice(1, -1), ...created].filter((part) => part !== '').join(',')}]`;
    return { status: 200, body, reason: `listed animals (limit ${limit}${status ? `, status ${status}` : ''})` };
  }
  if (input?.create) {
    const id = Number(data);
    const body = `{"id":${id}${plan.args[15] as string}`;
    return { status: 201, body, headers: { Location: `/v1/pets/${id}` }, reason: `created animal ${id}` };
  }
  const get = input?.get;
  const found = get?.pending ? (typeof data === 'string' ? data : undefined) : get?.found;
  if (!get || found === undefined) {
    throw new MockError('pet_not_found', `No animal has id ${get?.id}. List the animals with GET /v1/pets to find a valid id.`);
  }
  return { status: 200, body: found, reason: `found animal ${get.id}` };
}
