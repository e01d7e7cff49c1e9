// Assembles a mock from its parts: the settings (flags, fixtures, scenarios), the core engine,
// and one of the two front ends (the HTTP server or the fetch handler).
import './node-platform.js';
import { MockEngine } from './core/pipeline/engine.js';
import { listSessions, sessionControls, type SessionHandle } from './controls.js';
import type { SessionSummary } from './core/state/sessions.js';
import type { JournalEntry } from './core/state/journal.js';
import type { KeyConfig, Pet } from './core/types.js';
import { answerFetch } from './http/fetch-handler.js';
import { listen, type AdminContext } from './http/server.js';
import { prepareHost } from './files/host-data.js';
import { ScenarioCatalogue } from './files/scenario-catalogue.js';
import { checkOptions } from './mock-options.js';

export { clockOf, type MockClock, type SessionHandle } from './controls.js';

/** Options of `startMock` (and of the CLI, which maps its flags onto them). */
export interface MockOptions {
  /** Port to listen on; 0 (the library's default) takes a free one. */
  port?: number;
  /** Interface to listen on; 127.0.0.1 by default. */
  host?: string;
  /** Faker seed for the generated animals; the same seed gives byte-identical answers. */
  seed?: number;
  /** How many animals to generate (50 by default: fewer than the largest page, so created ones show in a list). */
  pets?: number;
  /** A fixtures file (JSON array of animals or json-server db.json), or the animals themselves. */
  fixtures?: string | readonly Pet[];
  /** A shipped scenario name or a scenario file path. */
  scenario?: string;
  /** Extra keys as `KEY:PLAN[:PER_MINUTE:PER_DAY]` strings or objects. */
  keys?: readonly (string | KeyConfig)[];
  /** Protects the admin API: admin calls must send `Authorization: Bearer <token>`. */
  adminToken?: string;
  /** Host names the admin API answers to besides loopback names and `host` (as `--allow-host`). */
  allowHosts?: readonly string[];
  /** Open connections past which a new one gets 503 `too_many_connections` (1,000 by default). */
  maxConnections?: number;
  /** `X-Mock-Session` sessions kept at once; past it the least recently used is dropped (1,000 by default). */
  maxSessions?: number;
  /** Called once per answered API request (the CLI logs with it). */
  onRequest?: (entry: JournalEntry) => void;
  /** The real time source the virtual clocks run on (Date.now by default). */
  now?: () => number;
  /** Counts of the request log's output (the CLI's), shown by `GET /__admin/health`. */
  logStats?: { readonly droppedLines: number; readonly readerBehind?: boolean };
}

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
  close(): Promise<void>;
}

/** The engine and what both front ends (server and fetch handler) build around it. */
interface Core {
  engine: MockEngine;
  keys: KeyConfig[];
  admin: AdminContext;
  /** The test controls of one session (the default one for `undefined`). */
  session(id: string | undefined): SessionHandle;
}

function createCore(options: MockOptions & { clientAddress?: string }): Core {
  const keysGiven = checkOptions(options);
  const scenarios = new ScenarioCatalogue(prepareHost({ ...options, keys: keysGiven }));
  const settings = options.scenario ? scenarios.settings(options.scenario) : scenarios.startSettings();
  const engine = new MockEngine({ settings, now: options.now, onRequest: options.onRequest, maxSessions: options.maxSessions });
  const session = (id: string | undefined): SessionHandle => sessionControls(engine, id, (nameOrFile) => scenarios.settings(nameOrFile));
  const admin: AdminContext = {
    listScenarios: () => scenarios.list(),
    useScenario: (name, id) => engine.sessions.resolve(id).apply(scenarios.settingsByName(name)),
  };
  return { engine, keys: [...settings.keys], admin, session };
}

/**
 * Starts a mock server for tests: `const mock = await startMock(); … await mock.close()`.
 * It listens on 127.0.0.1 and a free port unless told otherwise.
 */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const { engine, keys, admin, session } = createCore(options);
  const running = await listen(engine, {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    adminToken: options.adminToken,
    allowHosts: options.allowHosts,
    maxConnections: options.maxConnections,
    admin,
    logStats: options.logStats,
  });
  return {
    url: `${running.origin}/v1`,
    origin: running.origin,
    port: Number(new URL(running.origin).port),
    keys,
    ...session(undefined),
    session,
    sessions: () => listSessions(engine),
    engine,
    close: () => running.close(),
  };
}

/** Options of `createFetchHandler`: those of `startMock` without the networking ones. */
export interface FetchHandlerOptions extends Omit<MockOptions, 'port' | 'host' | 'adminToken' | 'allowHosts' | 'maxConnections' | 'logStats'> {
  /** The client address requests without a key are counted under (127.0.0.1 by default). */
  clientAddress?: string;
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
export function createFetchHandler(options: FetchHandlerOptions = {}): MockFetchHandler {
  const { engine, keys, session } = createCore(options);
  const address = options.clientAddress ?? '127.0.0.1';
  const handler = (request: Request): Promise<Response> => answerFetch(engine, request, address);
  return Object.assign(handler, { keys, ...session(undefined), session, sessions: () => listSessions(engine), engine });
}
