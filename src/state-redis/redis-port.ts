// The Redis home of state behind the pipeline's port: one script call decides a request (and
// carries the journal entries of earlier answers); nothing of the pipeline lives here.
import type { KeyIds } from '../core/state/key-id.js';
import { MockError, named } from '../core/errors.js';
import { boundEntry, type JournalEntry } from '../core/state/journal.js';
import type { RateReport } from '../core/state/limiter.js';
import type { Decision, Planner, StateAsk, StatePort } from '../core/state/state-port.js';
import type { SessionSettings } from '../core/state/session-state.js';
import type { CoreRequest } from '../core/types.js';
import { leanInput } from './api-input.js';
import { runsIn, type RecordedEntry } from './journal-runs.js';
import { callNamed } from './script-io.js';
import { absentKey, deploymentKeys, journalKeys, sessionKeys } from './keys.js';
import { FailureWatch } from './failure-watch.js';
import type { StateConnection } from './connection.js';
import { INSTANCE } from '../instance.js';
import { forcedOf, inputOf, latencyOf, rateDecisionOf } from './redis-plan.js';
import { REDIS_OPERATIONS } from './operations/index.js';
import { answersOf, type ScriptAnswer } from './answers.js';
import type { SettingsRegistry } from './settings-registry.js';

interface Queued {
  sid: string;
  /** A session whose keys the call must declare too: the one this decision drops to make room. */
  victim: string | undefined;
  /** The script's input, as JSON. */
  fields: string;
  resolve: (answer: ScriptAnswer) => void;
  reject: (error: unknown) => void;
}

/** At most this many decisions go in one call: a longer script would hold Redis up (about 15 µs each). */
const MAX_BATCH = 256;

/** Past this many client addresses the last reports seen start over. */
const MAX_ADDRESS_REPORTS = 10_000;

/** The `StatePort` of instances sharing one Redis; a session's handle is its epoch (an entry of a session reset since is let go). */
export class RedisPort implements StatePort<string> {
  private lastLostReport = 0;
  /** The last report of each client address, for answers given outside the pipeline. */
  private readonly addressReports = new Map<string, RateReport>();
  /** Entries of answered requests that ride with the next script call (or a flush when none comes). */
  private pending: RecordedEntry[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** Decisions waiting for the call in flight to return. */
  private queue: Queued[] = [];
  private inFlight = false;
  readonly failures = new FailureWatch();

  constructor(
    private readonly conn: StateConnection,
    private readonly prefix: string,
    private readonly registry: SettingsRegistry,
    private readonly maxSessions: number,
    private readonly register: () => Promise<void>,
    private readonly ids: () => KeyIds,
  ) {}

  get startSettings(): SessionSettings {
    return this.registry.start.settings;
  }

  get keyIds(): KeyIds {
    return this.ids();
  }

  guess(sid: string): SessionSettings {
    return this.registry.guess(sid).settings;
  }

  async decide<P extends StateAsk>(sid: string, req: CoreRequest, planner: Planner<P>): Promise<Decision<string, P>> {
    let entry = this.registry.guess(sid);
    let victim: string | undefined;
    for (let attempt = 0; ; attempt++) {
      const { settings } = entry;
      const plan = planner(req, settings);
      const { input, local } = inputOf(plan, settings, req);
      const lean = leanInput(input);
      lean.sid = sid;
      lean.set = entry.id;
      lean.max = this.maxSessions;
      const answer = await this.ask(sid, JSON.stringify(lean), victim);
      if (answer.st === 'error') {
        // This decision failed alone inside Redis; the batch's others stand.
        const error = this.conn.decisionFailed(answer.err);
        this.failures.failed(sid, error.message);
        throw error;
      }
      if (answer.st === 'ok') {
        this.failures.succeeded(sid);
        const rate = rateDecisionOf(answer.decision, settings.ban.inFlight);
        if (plan.bucket.startsWith('addr:')) {
          if (this.addressReports.size >= MAX_ADDRESS_REPORTS) this.addressReports.clear();
          this.addressReports.set(plan.bucket, rate.report);
        }
        const decision: Decision<string, P> = {
          home: answer.ep,
          plan,
          session: sid,
          settings,
          now: Number(answer.now),
          real: Number(answer.real),
          details: answer.details !== '' ? answer.details === '1' : settings.journalDetails === true,
          seq: answer.seq,
          rate,
          removed: answer.removed === true,
          latencyMs: plan.mode === 'take' ? latencyOf(settings, answer, plan.operation) : 0,
        };
        if (answer.evicted) decision.evictedAt = new Date(Number(answer.evicted)).toISOString();
        const forced = forcedOf(settings, answer);
        if (forced) decision.forced = forced;
        else if (answer.dcall !== undefined) decision.declaredCall = answer.dcall;
        else if (rate.outcome === 'allowed' && plan.operation !== undefined && plan.input !== undefined) {
          // What the operation read or wrote, from the script's `data` and what `inputOf` noted.
          const data = REDIS_OPERATIONS[plan.operation].dataOf(plan.input, settings, answer, local);
          if (data) decision.data = data;
        }
        return decision;
      }
      // Retried alone, as a request of its own: a batch's other decisions stand as taken. Sessions
      // made at once by many replicas may race for the one to drop: each try names the next.
      if (attempt >= (answer.st === 'evict' ? 20 : 3)) throw new Error(named(`the shared state kept changing under session ${sid}`));
      if (answer.st === 'evict') victim = answer.victim;
      else if (answer.st === 'stale') entry = await this.registry.seen(sid, answer.set);
      else await this.register();
    }
  }

  /**
   * Queues a decision: it goes at once when no call is in flight, else with every decision queued
   * meanwhile, in one call, when the call in flight returns (so an idle instance adds no wait). A
   * whole call's fault of the script counts against the session (an outage does not: health says that itself).
   */
  private async ask(sid: string, fields: string, victim: string | undefined): Promise<ScriptAnswer> {
    try {
      return await new Promise<ScriptAnswer>((resolve, reject) => {
        this.queue.push({ sid, victim, fields, resolve, reject });
        if (!this.inFlight) this.send();
      });
    } catch (error) {
      if (!(error instanceof MockError && error.code === 'state_unavailable'))
        this.failures.failed(sid, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  /** Sends the queued decisions and the journal entries waiting, in one call. */
  private send(): void {
    const items = this.queue.splice(0, MAX_BATCH);
    const batch = this.pending;
    this.pending = [];
    this.inFlight = true;
    const journal = JSON.stringify(runsIn(batch));
    // The entries' texts go as arguments of their own: inside the JSON they would be escaped twice.
    // Requests alike (the same list under load) share one input: the script decodes each once.
    const inputs = new Map<string, number>();
    const order = items.map((item) => {
      let at = inputs.get(item.fields);
      if (at === undefined) inputs.set(item.fields, (at = inputs.size));
      return at;
    });
    // The Redis instant after which this call is given up (answered 503): a later start changes nothing.
    const deadline = this.conn.deadline();
    const dl = deadline === undefined ? '' : `"dl":${deadline},`;
    const fields = `{${dl}"journal":${journal},"u":[${[...inputs.keys()].join(',')}],"d":[${order.join(',')}]}`;
    // Every key the call may touch: the deployment's and those of each session it decides or journals for.
    const keys = [...deploymentKeys(this.prefix)];
    const seen = new Set<string>();
    for (const sid of [...items.flatMap((item) => (item.victim === undefined ? [item.sid] : [item.sid, item.victim])), ...batch.map((e) => e.sid)]) {
      if (seen.has(sid)) continue;
      seen.add(sid);
      keys.push(...sessionKeys(this.prefix, sid));
    }
    void this.conn.run('petApi', keys, [this.prefix, fields, ...batch.map((e) => e.text)]).then(
      (raw) => {
        // Whatever came back, the queue moves on and every decision of the batch is settled.
        const { answers, expired, real } = answersOf(raw);
        if (real !== undefined) this.conn.redisClock.observe(real, performance.now());
        this.next();
        if (expired) {
          // Redis started the call past its deadline and changed nothing: a 503, as a timeout.
          const error = this.conn.expired();
          if (batch.length > 0) this.journalLost(error);
          for (const item of items) item.reject(error);
          return;
        }
        items.forEach((item, i) => {
          const answer = answers[i];
          if (answer) item.resolve(answer);
          else item.reject(new Error(named(`the shared state answered ${answers.length} decisions for ${items.length}`)));
        });
      },
      (error: unknown) => {
        if (batch.length > 0) this.journalLost(error);
        this.next();
        for (const item of items) item.reject(error);
      },
    );
  }

  private next(): void {
    this.inFlight = false;
    if (this.queue.length > 0) this.send();
  }

  record(decision: Decision<string, StateAsk>, journal: JournalEntry): void {
    // Every instance numbers its own connections: the pair names one across the deployment.
    if (journal.connection !== undefined) journal.instance = INSTANCE;
    const bytes = boundEntry(journal);
    this.pending.push({
      sid: decision.session,
      real: decision.real,
      ep: decision.home,
      text: `${bytes} ${JSON.stringify(journal)}`,
      bytes,
      cap: decision.settings.journalSize,
    });
    // Under load the next request carries it; when none comes within 5 ms, a flush of its own does.
    this.flushTimer ??= setTimeout(() => void this.flush(), 5);
  }

  /**
   * Answers outside the pipeline (431) must answer at once, so they show the last report this
   * instance saw for the address, or a full window when it saw none.
   */
  anonymousReport(address: string | undefined): { report: RateReport; now: number } {
    const now = Date.now();
    const known = this.addressReports.get(`addr:${address ?? 'unknown'}`);
    const limits = this.startSettings.anonymousLimits;
    const shortest = limits[0] ?? { lengthMs: 60_000, max: 0 };
    const reset = ((Math.floor(now / shortest.lengthMs) + 1) * shortest.lengthMs) / 1000;
    return { report: known ?? { limit: shortest.max, remaining: shortest.max, reset }, now };
  }

  /** Sends the journal entries no request has carried yet (before a journal read, and at close). */
  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    const keys = [absentKey(this.prefix), ...new Set(batch.flatMap((e) => journalKeys(this.prefix, e.sid)))];
    await callNamed(
      this.conn,
      'petJournal',
      keys,
      this.prefix,
      { runs: runsIn(batch) },
      batch.map((e) => e.text),
    ).catch((error: unknown) => {
      this.journalLost(error);
    });
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
}
