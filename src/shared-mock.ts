// Assembles a mock whose sessions live in Redis (`state: 'redis://…'`): the same front ends, the
// shared engine and admin state. The Redis module is imported here, on demand, and nowhere else.
import { parseDuration, type ClockState } from './core/state/clock.js';
import type { AdminState, ApiCore } from './core/state/backend.js';
import type { JournalEntry } from './core/state/journal.js';
import { compileFilter, verifyEntries, type JournalFilter, type VerifyCount } from './core/state/journal-query.js';
import type { SessionSummary } from './core/state/sessions.js';
import type { RequestsQuery } from './controls.js';
import type { KeyConfig } from './core/types.js';
import { answerFetch } from './http/fetch-handler.js';
import { listen } from './http/server.js';
import { prepareHost } from './files/host-data.js';
import { ScenarioCatalogue } from './files/scenario-catalogue.js';
import type { FetchHandlerOptions, SharedMockOptions } from './mock-options.js';
import type { SharedState } from './state-redis/index.js';

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
  engine: ApiCore;
  admin: AdminState;
  close(): Promise<void>;
}

/** Session controls through the admin state, so they act exactly as the admin API does. */
function sharedHandle(shared: SharedState, id: string | undefined): SharedSessionHandle {
  const admin = shared.admin;
  const change = async (c: Parameters<AdminState['changeClock']>[1]): Promise<void> => {
    await admin.changeClock(id, c);
  };
  return {
    clock: {
      now: async () => new Date((await admin.clock(id)).now),
      state: () => admin.clock(id),
      set: (instant) => {
        const ms = instant instanceof Date ? instant.getTime() : typeof instant === 'number' ? instant : Date.parse(instant);
        if (Number.isNaN(ms)) throw new Error(`petstore-mock: clock.set needs a Date, an ISO-8601 string or epoch milliseconds, not ${JSON.stringify(instant)}.`);
        return change({ set: ms });
      },
      advance: (duration) => {
        const ms = parseDuration(duration);
        if (ms === undefined) throw new Error(`petstore-mock: clock.advance needs a duration such as '61s', '1m30s' or '1d', not ${JSON.stringify(duration)}.`);
        return change({ advance: ms });
      },
      freeze: () => change({ frozen: true }),
      unfreeze: () => change({ frozen: false }),
    },
    reset: async () => {
      await admin.reset(id);
    },
    useScenario: async (nameOrFile) => {
      await shared.admin.useScenario(nameOrFile, id, false);
    },
    requests: async (query = {}) => {
      const { details, ...filter } = query;
      const test = compileFilter(filter);
      return (await admin.requests(id, details === true)).filter((e) => test.matches(e));
    },
    verify: async (filter, count) => verifyEntries(await admin.requests(id), filter, count),
  };
}

async function openShared(options: SharedMockOptions): Promise<{ shared: SharedState; keys: KeyConfig[] }> {
  const scenarios = new ScenarioCatalogue(prepareHost(options));
  const { openSharedState } = await import('./state-redis/index.js');
  const shared = await openSharedState({
    url: options.state,
    prefix: options.statePrefix,
    scenarios,
    startScenario: options.scenario,
    seed: options.seed,
    pets: options.pets,
    fixtures: options.fixtures !== undefined,
    commandTimeoutMs: options.stateTimeoutMs,
    onRequest: options.onRequest,
  });
  const keys = [...(options.scenario ? scenarios.settings(options.scenario) : scenarios.startSettings()).keys];
  return { shared, keys };
}

/** `startMock` with a shared state: connects, joins the deployment, then listens. */
export async function startShared(options: SharedMockOptions): Promise<SharedRunningMock> {
  const { shared, keys } = await openShared(options);
  let running;
  try {
    running = await listen(shared.engine, { port: options.port ?? 0, host: options.host ?? '127.0.0.1', adminToken: options.adminToken, admin: shared.admin });
  } catch (error) {
    await shared.close();
    throw error;
  }
  return {
    url: `${running.origin}/v1`,
    origin: running.origin,
    port: Number(new URL(running.origin).port),
    keys,
    statePrefix: shared.prefix,
    ...sharedHandle(shared, undefined),
    session: (id) => sharedHandle(shared, id),
    sessions: () => shared.admin.sessions(),
    engine: shared.engine,
    admin: shared.admin,
    close: async () => {
      await running.close();
      await shared.close();
    },
  };
}

/** A Fetch handler on a shared state, as `createSharedFetchHandler` returns it. */
export interface SharedFetchHandler extends SharedSessionHandle {
  (request: Request): Promise<Response>;
  keys: KeyConfig[];
  session(id: string): SharedSessionHandle;
  close(): Promise<void>;
}

/**
 * `createFetchHandler` with a shared state. Connecting to Redis takes a round trip, so this one
 * is async: `const handle = await createSharedFetchHandler({ state: 'redis://…' })`.
 */
export async function createSharedFetchHandler(options: Omit<FetchHandlerOptions, 'now'> & Pick<SharedMockOptions, 'state' | 'statePrefix' | 'stateTimeoutMs'>): Promise<SharedFetchHandler> {
  const { shared, keys } = await openShared(options);
  const address = options.clientAddress ?? '127.0.0.1';
  const handler = (request: Request): Promise<Response> => answerFetch(shared.engine, request, address);
  return Object.assign(handler, { keys, ...sharedHandle(shared, undefined), session: (id: string) => sharedHandle(shared, id), close: () => shared.close() });
}
