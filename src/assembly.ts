// The homes are made by mock.ts (files, watch), shared-mock.ts (Redis) and browser/index.ts
// (objects); each hands its home and front end to `assemble`, the server front end being serve.ts's.
import { MockEngine, type EngineOptions } from './core/pipeline/engine.js';
import { memoryOps, type Answer, type ScenarioLookup, type SessionOps } from './core/state/backend.js';
import { summarizeSessions, type SessionSummary } from './core/state/sessions.js';
import type { KeyConfig } from './core/types.js';
import { sessionHandle, type SessionHandle } from './controls.js';
import type { CloseOptions } from './mock-options.js';

/**
 * What the controls need of a home of state; `A` says whether it answers with promises. Its engine
 * and admin state go to the front end apart (the browser build has no admin state).
 */
export interface Home<A extends boolean> {
  ops: SessionOps<A>;
  asynchronous: A;
  /** The sessions, as `GET /__admin/sessions` lists them. */
  sessions(): Answer<SessionSummary[], A>;
}

/** The in-memory home: the engine with its sessions in this process. */
export interface MemoryHome extends Home<false> {
  engine: MockEngine;
}

/** Puts the in-memory home together: the engine, its sessions and the operations over them. */
export function memoryHome({ scenarios, ...options }: Omit<EngineOptions, 'snapshots'> & { scenarios: ScenarioLookup }): MemoryHome {
  const engine = new MockEngine({ ...options, snapshots: scenarios.snapshots });
  return {
    engine,
    ops: memoryOps(engine.sessions, scenarios),
    asynchronous: false,
    sessions: () => summarizeSessions(engine.sessions),
  };
}

/**
 * The one handle of a mock, whatever its front end and home of state: the controls of the default
 * session (`S`, a `SessionHandle<A>` unless a build narrows it), `session(id)`, `sessions()` and
 * `keys`, joined to what the front end adds (`F`: a server's URL and `close`, a Fetch handler's
 * call). `A` says whether the members answer with promises (true on a shared state).
 */
export type MockHandle<A extends boolean = false, F extends object = object, S extends object = SessionHandle<A>> = F & S & MockControls<A, S>;

/** What every handle has besides the default session's controls. */
export interface MockControls<A extends boolean, S> {
  /** The API keys the mock accepts. */
  keys: KeyConfig[];
  /** The session that requests with `X-Mock-Session: id` see; looking creates nothing, a change creates it. */
  session(id: string): S;
  /** The sessions so far, as `GET /__admin/sessions` lists them. */
  sessions(): Answer<SessionSummary[], A>;
}

/** What a server adds to a handle. */
export interface Served {
  /** The API base URL, e.g. http://127.0.0.1:4010/v1. */
  url: string;
  /** The server's origin, e.g. http://127.0.0.1:4010. */
  origin: string;
  port: number;
  /** Stops, after answering what is in flight (`drainTime`); `lameDuck` first keeps serving while health says 503. */
  close(options?: CloseOptions): Promise<void>;
}

/** A Fetch front end: a standard handler of `Request`s. */
export type FetchFront = (request: Request) => Promise<Response>;

/** How `assemble` shapes the controls: HAR URLs name `origin`; `session` narrows a build's session handle. */
export interface AssembleOptions<A extends boolean, S> {
  origin?: () => string;
  session?: (handle: SessionHandle<A>, id: string | undefined) => S;
}

/**
 * Puts a mock's handle together, the one way for every entry (`startMock`, `createFetchHandler`,
 * the browser build) and every home: the front end (`front`, a server's members or a Fetch
 * handler, which is extended in place) with the home's session controls.
 */
export function assemble<A extends boolean, F extends object, S extends object = SessionHandle<A>>(
  home: Home<A>,
  keys: readonly KeyConfig[],
  front: F,
  options: AssembleOptions<A, S> = {},
): MockHandle<A, F, S> {
  const narrow = options.session ?? ((handle: SessionHandle<A>): S => handle as unknown as S);
  const handle = (id: string | undefined): S => narrow(sessionHandle(home.ops, id, home.asynchronous, options.origin), id);
  const controls: MockControls<A, S> = {
    keys: [...keys],
    session: (id: string) => handle(id),
    sessions: () => home.sessions(),
  };
  return Object.assign(front, handle(undefined), controls) as MockHandle<A, F, S>;
}
