// How a mock is put together, one way for every front end (server, Fetch handler, browser build)
// and every home of state: an engine (the pipeline over the home's port), the admin state, and the
// session controls over the home's operations. The Node assembly (files, watch) is mock.ts, the
// Redis one shared-mock.ts, the browser's browser/index.ts; each hands its home to `surface`.
import { MockEngine } from './core/pipeline/engine.js';
import { memoryOps, type Answer, type ApiHandler, type ScenarioLookup, type SessionOps } from './core/state/backend.js';
import { summarizeSessions, type SessionSummary } from './core/state/sessions.js';
import type { JournalEntry } from './core/state/journal.js';
import type { SessionSettings } from './core/state/session-state.js';
import type { KeyConfig } from './core/types.js';
import { sessionHandle, type SessionHandle } from './controls.js';

/**
 * A mock's parts over one home of state; `A` says whether the home answers with promises. The
 * admin API's state is made apart where a server needs it (the browser build has none).
 */
export interface Home<A extends boolean> {
  engine: ApiHandler;
  ops: SessionOps<A>;
  asynchronous: A;
  /** The sessions, as `GET /__admin/sessions` lists them. */
  sessions(): Answer<SessionSummary[], A>;
}

/** The in-memory home: the engine with its sessions in this process. */
export interface MemoryHome extends Home<false> {
  engine: MockEngine;
}

/** What the in-memory home is made from. */
export interface MemoryHomeOptions {
  settings: SessionSettings;
  scenarios: ScenarioLookup;
  now?: () => number;
  maxSessions?: number;
  onRequest?: (entry: JournalEntry) => void;
}

/** Puts the in-memory home together. */
export function memoryHome(options: MemoryHomeOptions): MemoryHome {
  const engine = new MockEngine({ settings: options.settings, now: options.now, onRequest: options.onRequest, maxSessions: options.maxSessions });
  return {
    engine,
    ops: memoryOps(engine.sessions, options.scenarios),
    asynchronous: false,
    sessions: () => summarizeSessions(engine.sessions),
  };
}

/** The test controls every front end shows: the default session's, `session(id)` and `sessions()`. */
export type Surface<A extends boolean> = SessionHandle<A> & {
  /** The API keys the mock accepts. */
  keys: KeyConfig[];
  /** The session that requests with `X-Mock-Session: id` see; looking creates nothing, a change creates it. */
  session(id: string): SessionHandle<A>;
  /** The sessions so far, as `GET /__admin/sessions` lists them. */
  sessions(): Answer<SessionSummary[], A>;
};

/** The controls of a home, the same members whatever the home; HAR URLs name `origin` (the server's, once it listens). */
export function surface<A extends boolean>(
  home: Pick<Home<A>, 'ops' | 'asynchronous' | 'sessions'>,
  keys: readonly KeyConfig[],
  origin?: () => string,
): Surface<A> {
  return {
    keys: [...keys],
    ...sessionHandle(home.ops, undefined, home.asynchronous, origin),
    session: (id: string) => sessionHandle(home.ops, id, home.asynchronous, origin),
    sessions: () => home.sessions(),
  };
}
