// Assembles a mock from its parts: the settings (flags, fixtures, scenarios), the core engine,
// and one of the two front ends (the HTTP server or the fetch handler).
import './node-platform.js';
import { MockEngine } from './core/pipeline/engine.js';
import { listSessions, sessionControls, type ScenarioSource, type SessionHandle } from './controls.js';
import type { SessionSummary } from './core/state/sessions.js';
import type { KeyConfig } from './core/types.js';
import { answerFetch } from './http/fetch-handler.js';
import { listen, type RunningServer } from './http/server.js';
import { memoryAdmin, type AdminState } from './core/state/backend.js';
import { sharedFetchHandler, startShared, type SharedFetchHandler, type SharedRunningMock } from './shared-mock.js';
import type { FetchHandlerOptions, MockOptions, SharedFetchOptions, SharedMockOptions } from './library-options.js';
import { serverOptions } from './library-options.js';
import { prepareDefaults } from './files/defaults-data.js';
import { ScenarioCatalogue } from './files/scenario-catalogue.js';
import { reloadSessions, watchFiles, type ReloadReport } from './files/live-reload.js';
import { checkOptions } from './mock-options.js';
import { Metrics, counted } from './metrics.js';

export { clockOf, type MockClock, type SessionHandle } from './controls.js';

export type { FetchHandlerOptions, MockOptions, SharedFetchOptions, SharedMockOptions } from './library-options.js';

/** A running mock, as `startMock` returns it; its session methods act on the default session. */
export interface RunningMock extends SessionHandle {
  /** The API base URL, e.g. http://127.0.0.1:4010/v1. */
  url: string;
  /** The server's origin, e.g. http://127.0.0.1:4010. */
  origin: string;
  port: number;
  /** The API keys the mock accepts. */
  keys: KeyConfig[];
  /** The world that requests with `X-Mock-Session: id` see (created on first use). */
  session(id: string): SessionHandle;
  /** The sessions so far, as `GET /__admin/sessions` lists them. */
  sessions(): SessionSummary[];
  /** The core, for in-process use. */
  engine: MockEngine;
  /**
   * Re-reads the files now, as `watch` does on a change; undefined when none changed. Sessions
   * of a changed scenario restart in its new version.
   */
  reload(): ReloadReport | undefined;
  close(): Promise<void>;
}

/** The engine and what both front ends (server and fetch handler) build around it. */
interface Core {
  engine: MockEngine;
  keys: KeyConfig[];
  admin: AdminState;
  metrics: Metrics;
  /** The test controls of one session (the default one for `undefined`). */
  session(id: string | undefined): SessionHandle;
  reload(): ReloadReport | undefined;
  /** Stops watching files. */
  stop(): void;
  /** Tells the controls the server's origin. */
  listening(origin: string): void;
}

function createCore(options: MockOptions & { clientAddress?: string }): Core {
  const keysGiven = checkOptions(options);
  const scenarios = new ScenarioCatalogue(prepareDefaults({ ...options, keys: keysGiven }));
  const settings = options.scenario ? scenarios.settings(options.scenario) : scenarios.startSettings();
  const metrics = new Metrics();
  const engine = new MockEngine({ settings, now: options.now, onRequest: counted(metrics, options.onRequest), maxSessions: options.maxSessions });
  const reload = (): ReloadReport | undefined => reloadSessions(scenarios, engine.sessions);
  const watching = options.watch
    ? watchFiles(
        () => scenarios.watchedFiles(),
        () => {
          const report = reload();
          if (report) options.onReload?.(report);
        },
      )
    : undefined;
  // A reset or a switch reads the scenario's files as they are now, as a reload would.
  const source: ScenarioSource = {
    settings: (nameOrFile) => {
      const found = scenarios.settings(nameOrFile);
      watching?.sync();
      return found;
    },
    latest: (name) => scenarios.latest(name),
  };
  // The HAR's URLs: the server's origin once it listens (a fetch handler has none of its own).
  let origin = 'http://localhost';
  const session = (id: string | undefined): SessionHandle => sessionControls(engine, id, source, () => origin);
  const admin = memoryAdmin(engine.sessions, scenarios);
  return { engine, keys: [...settings.keys], admin, metrics, session, reload, stop: () => watching?.close(), listening: (at) => (origin = at) };
}

/**
 * Starts a mock server for tests: `const mock = await startMock(); … await mock.close()`.
 * It listens on 127.0.0.1 and a free port unless told otherwise.
 */
export async function startMock(options: SharedMockOptions): Promise<SharedRunningMock>;
export async function startMock(options?: MockOptions): Promise<RunningMock>;
export async function startMock(options: MockOptions | SharedMockOptions = {}): Promise<RunningMock | SharedRunningMock> {
  if ('state' in options && typeof options.state === 'string') return startShared(options);
  const { engine, keys, admin, metrics, session, reload, stop, listening } = createCore(options);
  let running: RunningServer;
  try {
    running = await listen(engine, serverOptions(options, admin, metrics));
  } catch (error) {
    stop();
    throw error;
  }
  listening(running.origin);
  return {
    url: `${running.origin}/v1`,
    origin: running.origin,
    port: Number(new URL(running.origin).port),
    keys,
    ...session(undefined),
    session,
    sessions: () => listSessions(engine),
    engine,
    reload,
    close: () => {
      stop();
      return running.close();
    },
  };
}

/** A standard Fetch handler backed by the mock's core, with the test controls of `RunningMock`. */
export interface MockFetchHandler extends SessionHandle {
  (request: Request): Promise<Response>;
  /** The API keys the mock accepts. */
  keys: KeyConfig[];
  /** The world that requests with `X-Mock-Session: id` see (created on first use). */
  session(id: string): SessionHandle;
  /** The sessions so far, as `GET /__admin/sessions` lists them. */
  sessions(): SessionSummary[];
  /** The core. */
  engine: MockEngine;
}

/**
 * Returns `(request: Request) => Promise<Response>` answering the API in-process, with no port:
 * for MSW handlers, service workers or direct calls. Any origin works; paths start with `/v1`.
 */
export function createFetchHandler(options: SharedFetchOptions): SharedFetchHandler;
export function createFetchHandler(options?: FetchHandlerOptions): MockFetchHandler;
export function createFetchHandler(options: FetchHandlerOptions | SharedFetchOptions = {}): MockFetchHandler | SharedFetchHandler {
  if ('state' in options && typeof options.state === 'string') return sharedFetchHandler(options);
  const { engine, keys, session } = createCore({ ...options, watch: false });
  const address = options.clientAddress ?? '127.0.0.1';
  const handler = (request: Request): Promise<Response> => answerFetch(engine, request, address);
  return Object.assign(handler, { keys, ...session(undefined), session, sessions: () => listSessions(engine), engine });
}
