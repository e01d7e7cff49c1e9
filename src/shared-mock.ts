// Assembles a mock whose sessions live in Redis (`state: 'redis://…'`): the same front ends, the
// shared engine and admin state. The Redis module is imported here, on demand, and nowhere else.
import type { AdminState, ApiHandler, SessionOps } from './core/state/backend.js';
import { forwardedOps } from './core/state/session-ops.js';
import { assemble, type FetchFront, type MockHandle, type Served } from './assembly.js';
import type { SessionHandle } from './controls.js';
import type { KeyConfig } from './core/types.js';
import { answerFetch } from './http/fetch-handler.js';
import { serve } from './serve.js';
import { prepareDefaults } from './files/defaults-data.js';
import { ScenarioCatalogue } from './files/scenario-catalogue.js';
import type { SharedFetchOptions, SharedMockOptions } from './library-options.js';
import { checkOptions, checkSharedOptions } from './mock-options.js';
import { MockError, renderError } from './core/errors.js';
import { setNoStateRateHeaders } from './core/state/limiter.js';
import type { SharedState } from './state-redis/index.js';
import { Pipeline } from './core/pipeline/pipeline.js';
import { Metrics, counted } from './metrics.js';

/** A session's controls on a shared state: the members of `SessionHandle`, each answering with a promise. */
export type SharedSessionHandle = SessionHandle<true>;

/** A running mock on a shared state, as `startMock({ state })` returns it. */
export type SharedRunningMock = MockHandle<
  true,
  Served & {
    /** The Redis key prefix of the deployment, hash tag included: `{petstore-mock}`. */
    statePrefix: string;
    engine: ApiHandler;
    admin: AdminState;
  }
>;

/** Session operations that wait for the state to be opened first (a Fetch handler connects in the background). */
function lazyOps(state: () => Promise<SharedMock>): SessionOps<true> {
  let opened: AdminState | undefined;
  return {
    get keyIds() {
      return opened?.keyIds;
    },
    ...forwardedOps(async () => (opened = (await state()).admin)),
  };
}

/** The catalogue and keys of an instance, known before Redis is asked anything. */
function defaultsOf(options: SharedMockOptions): { scenarios: ScenarioCatalogue; keys: KeyConfig[] } {
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
  const { scenarios, keys } = defaultsOf(options);
  const metrics = new Metrics();
  const shared = await openShared(options, scenarios, metrics);
  // Registered only once the port is open: a start that fails leaves nothing in Redis.
  const served = await serve({ engine: shared.engine, admin: shared.admin, metrics, listening: () => shared.join(), stop: () => shared.close() }, options);
  const front = { ...served, statePrefix: shared.prefix, engine: shared.engine, admin: shared.admin };
  return assemble({ ops: shared.admin, asynchronous: true, sessions: () => shared.admin.sessions() }, keys, front, { origin: () => served.origin });
}

/** A Fetch handler on a shared state, as `createFetchHandler({ state })` returns it. */
export type SharedFetchHandler = MockHandle<
  true,
  FetchFront & {
    /** Resolves once connected to Redis and joined to the deployment; rejects saying why not (unreachable, other settings). */
    ready(): Promise<void>;
    close(): Promise<void>;
  }
>;

/**
 * `createFetchHandler` with a shared state. It connects in the background: `await handle.ready()`
 * to know it joined; until then (and while Redis cannot be reached) requests are answered with
 * the 503 `state_unavailable`, and a failed connection is tried again on the next request.
 */
export function sharedFetchHandler(options: SharedFetchOptions): SharedFetchHandler {
  const { scenarios, keys } = defaultsOf(options);
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
      setNoStateRateHeaders(answer.headers, anonymous, 1);
      return new Response(request.method === 'HEAD' ? null : answer.body, { status: answer.status, headers: answer.headers });
    }
    return answerFetch(shared.engine, request, address);
  };
  void state().catch(() => undefined);
  const front = Object.assign(handler, {
    ready: async () => {
      await state();
    },
    close: async () => {
      const current = opening;
      opening = undefined;
      if (current) await (await current.catch(() => undefined))?.close();
    },
  });
  return assemble({ ops: lazyOps(state), asynchronous: true, sessions: async () => (await state()).admin.sessions() }, keys, front);
}
