// The seam between the front ends and where a session's state lives. The in-memory engine answers
// synchronously (its hot path stays as it is); a shared state such as Redis answers with a promise.
import { keyView, type KeyView } from './key-view.js';
import { isValidInstant, type ClockState } from './clock.js';
import { MockError } from '../errors.js';
import type { KeyIds } from './key-id.js';
import { MemoryPort } from './memory-port.js';
import { sessionIdOf, summarizeSessions, type Eviction, type SessionRegistry, type SessionSummary } from './sessions.js';
import type { CoreRequest, CoreResponse } from '../types.js';
import { keyBucket, type SessionState, type SessionSettings } from './session-state.js';
import type { SnapshotDocument } from './snapshot.js';
import { NO_SCENARIO } from './session-settings.js';
import type { SnapshotSupport } from './snapshot-support.js';
import type { ScenarioSpec } from '../scenarios/scenario-spec.js';
import { forwardedOps, offeredOps, type ClockChange, type JournalInfo, type SessionOps } from './session-ops.js';

export type { Answer, ClockChange, JournalInfo, SessionOps } from './session-ops.js';

/** What a front end needs from the core. Adapters await only when given a promise. */
export interface ApiHandler {
  /** Answers one API request; never rejects (a failure becomes an Error body). */
  handle(req: CoreRequest): CoreResponse | Promise<CoreResponse>;
  /** Answers a request the adapter refused before the checks (a 414), with the usual headers. */
  refuse(req: CoreRequest, error: MockError): CoreResponse | Promise<CoreResponse>;
  /** The rate-limit headers of a client without a key, for answers given outside the pipeline (431). */
  anonymousRateHeaders(address: string | undefined): Record<string, string>;
  /**
   * Whether the head alone settles the answer (`Expect: 100-continue` is then answered at once).
   * Only an engine that can tell without waiting has it; otherwise the client gets `100 Continue`.
   */
  answeredBeforeBody?(req: CoreRequest): boolean;
}

/** Which state engine holds the sessions, as `/__admin/health` reports it. */
export interface StateReport {
  engine: 'memory' | 'redis';
  /** The Redis URL without its password. */
  url?: string;
  prefix?: string;
  reachable: boolean;
  /** Sessions whose every recent request failed while the state answered (Redis only; absent when none). */
  failing?: SessionFailure[];
}

/** A session whose decisions keep failing: how many in a row, since when, and the latest reason. */
export interface SessionFailure {
  session: string;
  failures: number;
  since: string;
  reason: string;
}

/** What the admin API reads and changes; `session` is the `X-Mock-Session` header value. */
export interface AdminState extends SessionOps<true> {
  /** The admin API runs beside its home of state, and knows its salt. */
  readonly keyIds: KeyIds;
  /**
   * `reportsDeployment` (shared state only): this replica alone shows the deployment's gauges in
   * the metrics, being the first of the live replicas, so `sum()` over replicas counts them once.
   */
  health(session: string | undefined): Promise<{ sessions: number; scenario: string; state: StateReport; reportsDeployment?: boolean }>;
  /** The session's scenario: its name, its definition where the home keeps it, and the clock. */
  scenario(session: string | undefined): Promise<{ name: string; definition?: ScenarioSpec; clock: ClockState }>;
  /** The journal's bounds and whether it records details. */
  journal(session: string | undefined): Promise<JournalInfo>;
  /** Every session: the default first, then the most recently used. */
  sessions(): Promise<SessionSummary[]>;
  keys(session: string | undefined): Promise<KeyView[]>;
  listScenarios(): { name: string; description: string }[];
  /** The state engine as last seen, for a health answer when it cannot be asked. */
  stateReport?(): StateReport;
  /** Sessions dropped to make room, as `GET /__admin/evictions` lists them. */
  evictions(): Promise<Eviction[]>;
  /** The session just before its request `seq` (`?before=SEQ`; in memory, while it records details). */
  snapshotBefore?(session: string | undefined, seq: number): Promise<SnapshotDocument>;
  /** The session clock's instant that dates an admin answer (the default session for `undefined` or an unusable id). */
  dateNow(session: string | undefined): number;
}

/** Refuses a clock change that would leave the instants a Date can hold, before anything changes. */
export function checkClockChange(now: number, change: ClockChange): void {
  if (!isValidInstant((change.set ?? now) + (change.advance ?? 0))) {
    throw new MockError('admin_invalid_request', 'that would move the clock beyond the years -271821 to 275760 a date can hold; set or advance it less far.');
  }
}

/** The scenarios a server can switch to, as the admin API and the test controls need them. */
export interface ScenarioLookup {
  list(): { name: string; description: string }[];
  settingsByName(name: string): SessionSettings;
  /** By name or, where files are read, by path: the library's `useScenario`. By name alone without it. */
  settings?(nameOrFile: string): SessionSettings;
  /** The current version of a scenario a session runs, its files read again; a reset applies it. */
  latest?(name: string): SessionSettings;
  /** A scenario given as an object, checked as a file is; throws `scenario_invalid` with a JSON pointer per mistake. */
  fromObject?(value: unknown): SessionSettings;
  /** Taking and restoring snapshots, with the schema's check; without it, this home takes none. */
  snapshots?: SnapshotSupport;
}

function journalInfo(s: SessionState): JournalInfo {
  return { session: s.id, details: s.journal.details, entries: s.journal.size, capacity: s.journal.capacity, total: s.journal.total };
}

/** The test controls' reads and changes of the in-memory sessions, answered at once. */
export function memoryOps(sessions: SessionRegistry, scenarios: ScenarioLookup): SessionOps<false> {
  // Reading a session (the admin page polls, a test looks) must not create it: only a change does.
  const view = (session: string | undefined): SessionState => sessions.view(session);
  const change = (session: string | undefined): SessionState => sessions.resolve(session);
  const scenarioAnswer = (s: SessionState) => ({ name: s.settings.scenario, session: s.id, clock: s.clock.state() });
  const sessionAnswer = (s: SessionState) => ({ session: s.id, scenario: s.settings.scenario, clock: s.clock.state() });
  const ops: SessionOps<false> = {
    keyIds: sessions.keyIds,
    reset: (session) => {
      const s = change(session);
      // Settings made from an object have no file to read again.
      s.apply(scenarios.latest && s.settings.inline !== true ? scenarios.latest(s.settings.scenario) : s.settings);
      return sessionAnswer(s);
    },
    useScenario: (name, session, byName = true) => {
      const s = change(session);
      s.apply(byName || !scenarios.settings ? scenarios.settingsByName(name) : scenarios.settings(name));
      return scenarioAnswer(s);
    },
    clock: (session) => view(session).clock.state(),
    changeClock: (session, { set, advance, frozen }) => {
      const { clock } = change(session);
      checkClockChange(clock.now(), { set, advance });
      // Frozen first: set then frozen would let real time run between the two.
      if (frozen === true) clock.freeze();
      if (set !== undefined) clock.set(set);
      if (advance !== undefined) clock.advance(advance);
      if (frozen === false) clock.unfreeze();
      return clock.state();
    },
    requests: (session, details = false) => view(session).journal.list(details),
    recordDetails: (session, on) => {
      const s = change(session);
      s.recordDetails(on);
      return journalInfo(s);
    },
    removalAt: (session) => view(session).settings.deprecation.removalAt,
    sessions: () => summarizeSessions(sessions),
  };
  // Snapshots and scenario objects only where the platform can check them (not in the browser build).
  const { snapshots, fromObject } = scenarios;
  if (snapshots) {
    const port = new MemoryPort(sessions, snapshots);
    ops.snapshot = (session) => port.snapshot(sessionIdOf(session));
    ops.restore = (session, document) => {
      // Checked whole before the session is touched (or created): a wrong document changes nothing.
      const restored = snapshots.read(document, snapshots.check, [sessions.startSettings().base, view(session).settings.base], sessions.keyIds);
      port.restore(sessionIdOf(session), restored);
      return sessionAnswer(view(session));
    };
  }
  if (fromObject) {
    ops.applyScenario = (session, scenario) => {
      const settings = fromObject(scenario);
      const s = change(session);
      s.apply(settings);
      return scenarioAnswer(s);
    };
  }
  return ops;
}

/** The admin side of the in-memory sessions: their test controls, and what only the admin API shows. */
export function memoryAdmin(sessions: SessionRegistry, scenarios: ScenarioLookup): AdminState {
  const ops = memoryOps(sessions, scenarios);
  const before = scenarios.snapshots?.before;
  const view = (session: string | undefined): SessionState => sessions.view(session);
  return {
    keyIds: sessions.keyIds,
    ...forwardedOps(() => ops, offeredOps(ops)),
    ...(before && { snapshotBefore: async (session: string | undefined, seq: number) => before(view(session), seq) }),
    health: async (session) => ({ sessions: sessions.all().length, scenario: view(session).settings.scenario, state: { engine: 'memory', reachable: true } }),
    scenario: async (session) => {
      const s = view(session);
      return { name: s.settings.scenario, definition: s.settings.definition ?? NO_SCENARIO, clock: s.clock.state() };
    },
    journal: async (session) => journalInfo(view(session)),
    sessions: async () => summarizeSessions(sessions),
    evictions: async () => sessions.evictions(),
    dateNow: (session) => {
      try {
        return view(session).clock.now();
      } catch {
        return sessions.defaultSession.clock.now();
      }
    },
    keys: async (session) => {
      const s = view(session);
      const now = s.clock.now();
      return [...s.keys.values()].map((k) => keyView(k, s.limiter.peek(keyBucket(k.key), k.limits, now), sessions.keyIds));
    },
    listScenarios: () => scenarios.list(),
  };
}
