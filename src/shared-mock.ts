// Assembles a mock whose sessions live in Redis (`state: 'redis://…'`): the same front ends, the
// shared engine and admin state. The Redis module is imported here, on demand, and nowhere else.
import type { ClockState } from './core/state/clock.js';
import type { AdminState, ApiHandler } from './core/state/backend.js';
import type { JournalEntry } from './core/state/journal.js';
import { toHar, type Har } from './core/state/har.js';
import { compileFilter, verifyEntries, type JournalFilter, type VerifyCount } from './core/state/journal-query.js';
import type { SessionSummary } from './core/state/sessions.js';
import { clockDuration, clockInstant, type RequestsQuery } from './controls.js';
import type { KeyConfig } from './core/types.js';
import { answerFetch } from './http/fetch-handler.js';
import { listen } from './http/server.js';
import { prepareDefaults } from './files/defaults-data.js';
import { ScenarioCatalogue } from './files/scenario-catalogue.js';
import type { SharedFetchOptions, SharedMockOptions } from './library-options.js';
import { serverOptions } from './library-options.js';
import { checkOptions, checkSharedOptions } from './mock-options.js';
import { MockError, renderError } from './core/errors.js';
import { setRateHeaders } from './core/state/limiter.js';
import type { SharedState } from './state-redis/index.js';
import { Pipeline } from './core/pipeline/pipeline.js';
import { assertWellBehaved, auditJournal, type AuditReport, type WellBehavedOptions } from './core/audit/audit.js';
import { Metrics, counted } from './metrics.js';

/** A session's controls on a shared state: as `SessionHandle`, but every call waits for Redis. */
export interface SharedSessionHandle {
  clock: {
    now(): Promise<Date>;
    state(): Promise<ClockState>;
    set(instant: Date | string | number): Promise<void>;
    advance(duration: string | number): Promise<void>;
    freeze(): Promise<void>;
    unfreeze(): Promise<void>;
  };
  reset(): Promise<void>;
  /** A shipped scenario name, a name loaded before, or a file path. */
  useScenario(nameOrFile: string): Promise<void>;
  /** The journal, oldest first, optionally filtered (as `GET /__admin/requests`). */
  requests(query?: RequestsQuery): Promise<JournalEntry[]>;
  /** Asserts how many requests of the journal match, as `SessionHandle.verify` does. */
  verify(filter: JournalFilter, count?: VerifyCount): Promise<JournalEntry[]>;
  /** The journal as HAR 1.2, as `SessionHandle.har` gives it. */
  har(filter?: JournalFilter): Promise<Har>;
  /** Makes the session's journal keep request and answer headers and bodies (bounded, keys redacted), or stop. */
  recordDetails(on?: boolean): Promise<void>;
  /** Audits the requests the session received, as `GET /__admin/audit` does; `key` narrows. */
  audit(options?: { key?: string }): Promise<AuditReport>;
  /** Rejects with an Error listing every error finding (and warning, with `{ warnings: true }`). */
  expectWellBehaved(options?: WellBehavedOptions): Promise<void>;
}

/** A running mock on a shared state, as `startMock({ state })` returns it. */
export interface SharedRunningMock extends SharedSessionHandle {
  url: string;
  origin: string;
  port: number;
  keys: KeyConfig[];
  /** The Redis key prefix of the deployment, hash tag included: `{petstore-mock}`. */
  statePrefix: string;
  session(id: string): SharedSessionHandle;
  /** The sessions so far, as `GET /__admin/sessions` lists them. */
  sessions(): Promise<SessionSummary[]>;
  engine: ApiHandler;
  admin: AdminState;
  close(): Promise<void>;
}

/** Session controls through the admin state, so they act exactly as the admin API does. */
function sharedHandle(state: () => Promise<SharedState>, id: string | undefined, origin = 'http://localhost'): SharedSessionHandle {
  const admin = async (): Promise<SharedState['admin']> => (await state()).admin;
  const change = async (c: Parameters<AdminState['changeClock']>[1]): Promise<void> => {
    await (await admin()).changeClock(id, c);
  };
  return {
    clock: {
      now: async () => new Date((await (await admin()).clock(id)).now),
      state: async () => (await admin()).clock(id),
      // Parsed before Redis is asked, as in memory: a wrong value changes nothing.
      set: async (instant) => change({ set: clockInstant(instant) }),
      advance: async (duration) => change({ advance: clockDuration(duration) }),
      freeze: () => change({ frozen: true }),
      unfreeze: () => change({ frozen: false }),
    },
    reset: async () => {
      await (await admin()).reset(id);
    },
    useScenario: async (nameOrFile) => {
      await (await admin()).useScenario(nameOrFile, id, false);
    },
    requests: async (query = {}) => {
      const { details, ...filter } = query;
      const test = compileFilter(filter);
      return (await (await admin()).requests(id, details === true)).filter((e) => test.matches(e));
    },
    verify: async (filter, count) => verifyEntries(await (await admin()).requests(id), filter, count),
    har: async (filter = {}) => {
      const test = compileFilter(filter);
      return toHar(
        (await (await admin()).requests(id, true)).filter((e) => test.matches(e)),
        origin,
      );
    },
    recordDetails: async (on = true) => {
      await (await admin()).recordDetails(id, on);
    },
    audit: async (options = {}) => auditJournal(await (await admin()).requests(id, true), { key: options.key }),
    expectWellBehaved: async (options = {}) => {
      assertWellBehaved(auditJournal(await (await admin()).requests(id, true), { key: options.key }), options);
    },
  };
}

/** The catalogue and keys of an instance, known before Redis is asked anything. */
function hostOf(options: SharedMockOptions): { scenarios: ScenarioCatalogue; keys: KeyConfig[] } {
  checkSharedOptions(options);
  const keysGiven = checkOptions(options);
  const scenarios = new ScenarioCatalogue(prepareDefaults({ ...options, keys: keysGiven }));
  const keys = [...(options.scenario ? scenarios.settings(options.scenario) : scenarios.startSettings()).keys];
  return { scenarios, keys };
}

/** A shared state with the pipeline in front of its port. */
type SharedMock = SharedState & { engine: Pipeline<string> };

async function openShared(options: SharedMockOptions, scenarios: ScenarioCatalogue, metrics: Metrics): Promise<SharedMock> {
  const { openSharedState } = await import('./state-redis/index.js');
  const state = await openSharedState({
    url: options.state,
    prefix: options.statePrefix,
    scenarios,
    startScenario: options.scenario,
    seed: options.seed,
    pets: options.pets,
    fixtures: typeof options.fixtures === 'string' ? options.fixtures : options.fixtures !== undefined,
    adminToken: 'adminToken' in options ? options.adminToken : undefined,
    commandTimeoutMs: options.stateTimeoutMs,
    maxSessions: options.maxSessions,
    observer: metrics,
  });
  return { ...state, engine: new Pipeline(state.port, counted(metrics, options.onRequest)) };
}

/** `startMock` with a shared state: connects, joins the deployment, then listens. */
export async function startShared(options: SharedMockOptions): Promise<SharedRunningMock> {
  const { scenarios, keys } = hostOf(options);
  const metrics = new Metrics();
  const shared = await openShared(options, scenarios, metrics);
  const state = (): Promise<SharedMock> => Promise.resolve(shared);
  let running;
  try {
    running = await listen(shared.engine, serverOptions(options, shared.admin, metrics));
  } catch (error) {
    await shared.close();
    throw error;
  }
  // Registered only once the port is open: a start that fails leaves nothing in Redis.
  try {
    await shared.join();
  } catch (error) {
    await running.close();
    await shared.close();
    throw error;
  }
  return {
    url: `${running.origin}/v1`,
    origin: running.origin,
    port: Number(new URL(running.origin).port),
    keys,
    statePrefix: shared.prefix,
    ...sharedHandle(state, undefined, running.origin),
    session: (id) => sharedHandle(state, id, running.origin),
    sessions: () => shared.admin.sessions(),
    engine: shared.engine,
    admin: shared.admin,
    close: async () => {
      await running.close();
      await shared.close();
    },
  };
}

/** A Fetch handler on a shared state, as `createFetchHandler({ state })` returns it. */
export interface SharedFetchHandler extends SharedSessionHandle {
  (request: Request): Promise<Response>;
  /** Resolves once connected to Redis and joined to the deployment; rejects saying why not (unreachable, other settings). */
  ready(): Promise<void>;
  keys: KeyConfig[];
  session(id: string): SharedSessionHandle;
  sessions(): Promise<SessionSummary[]>;
  close(): Promise<void>;
}

/**
 * `createFetchHandler` with a shared state. It connects in the background: `await handle.ready()`
 * to know it joined; until then (and while Redis cannot be reached) requests are answered with
 * the 503 `state_unavailable`, and a failed connection is tried again on the next request.
 */
export function sharedFetchHandler(options: SharedFetchOptions): SharedFetchHandler {
  const { scenarios, keys } = hostOf(options);
  const address = options.clientAddress ?? '127.0.0.1';
  const metrics = new Metrics();
  let opening: Promise<SharedMock> | undefined;
  const state = (): Promise<SharedMock> => {
    if (!opening) {
      const attempt = openShared(options, scenarios, metrics).then(async (shared) => {
        try {
          await shared.join();
        } catch (error) {
          await shared.close();
          throw error;
        }
        return shared;
      });
      opening = attempt;
      attempt.catch(() => {
        if (opening === attempt) opening = undefined;
      });
    }
    return opening;
  };
  const anonymous = scenarios.startSettings().anonymousLimits;
  const handler = async (request: Request): Promise<Response> => {
    let shared: SharedMock;
    try {
      shared = await state();
    } catch (error) {
      const answer = renderError(new MockError('state_unavailable', `${(error as Error).message} Retry after 1 s.`, { headers: { 'Retry-After': '1' } }), {
        'Access-Control-Allow-Origin': '*',
      });
      setRateHeaders(answer.headers, { limit: anonymous.perMinute, remaining: 0, reset: Math.ceil(Date.now() / 1000) + 1 }, false);
      return new Response(request.method === 'HEAD' ? null : answer.body, { status: answer.status, headers: answer.headers });
    }
    return answerFetch(shared.engine, request, address);
  };
  void state().catch(() => undefined);
  return Object.assign(handler, {
    keys,
    ...sharedHandle(state, undefined),
    session: (id: string) => sharedHandle(state, id),
    sessions: async () => (await state()).admin.sessions(),
    ready: async () => {
      await state();
    },
    close: async () => {
      const current = opening;
      opening = undefined;
      if (current) await (await current.catch(() => undefined))?.close();
    },
  });
}
