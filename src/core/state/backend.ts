// The seam between the front ends and where a session's state lives. The in-memory engine answers
// synchronously (its hot path stays as it is); a shared state such as Redis answers with a promise.
import { isValidInstant, type ClockState } from './clock.js';
import { MockError } from '../errors.js';
import { redactKey } from '../pipeline/auth.js';
import { demoKeys } from './plans.js';
import type { JournalEntry } from './journal.js';
import { summarizeSessions, type Eviction, type SessionRegistry, type SessionSummary } from './sessions.js';
import type { CoreRequest, CoreResponse, Limits, PlanName } from '../types.js';
import { keyBucket, type SessionState, type SessionSettings } from './session-state.js';

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

/** A change of a session's clock as `POST /__admin/clock` asks for it, already parsed. */
export interface ClockChange {
  set?: number;
  advance?: number;
  frozen?: boolean;
}

/** One key as `GET /__admin/keys` shows it. */
export interface KeyView {
  key: string;
  plan: PlanName;
  limits: Limits;
  revoked: boolean;
  remaining: number;
  reportedLimit: number;
  reset: number;
  bannedUntil: string | null;
}

/** Which state engine holds the sessions, as `/__admin/health` reports it. */
export interface StateReport {
  engine: 'memory' | 'redis';
  /** The Redis URL without its password. */
  url?: string;
  prefix?: string;
  reachable: boolean;
}

/** What the admin API reads and changes; `session` is the `X-Mock-Session` header value. */
export interface AdminState {
  health(session: string | undefined): Promise<{ sessions: number; scenario: string; state: StateReport }>;
  reset(session: string | undefined): Promise<{ session: string; scenario: string; clock: ClockState }>;
  scenario(session: string | undefined): Promise<{ name: string; clock: ClockState }>;
  /** Switches a session to a scenario by name; throws `ScenarioError` for an unknown or invalid one. */
  useScenario(name: string, session: string | undefined): Promise<{ name: string; session: string; clock: ClockState }>;
  clock(session: string | undefined): Promise<ClockState>;
  changeClock(session: string | undefined, change: ClockChange): Promise<ClockState>;
  /** The journal, oldest first; with `details`, the recorded headers and bodies too. */
  requests(session: string | undefined, details?: boolean): Promise<JournalEntry[]>;
  /** The journal's bounds and whether it records details. */
  journal(session: string | undefined): Promise<JournalInfo>;
  /** Switches recording of details for a session; it outlives resets and scenario switches. */
  recordDetails(session: string | undefined, on: boolean): Promise<JournalInfo>;
  /** Every session: the default first, then the most recently used. */
  sessions(): Promise<SessionSummary[]>;
  keys(session: string | undefined): Promise<KeyView[]>;
  listScenarios(): { name: string; description: string }[];
  /** The state engine as last seen, for a health answer when it cannot be asked. */
  stateReport?(): StateReport;
  /** Sessions dropped to make room, as `GET /__admin/evictions` lists them. */
  evictions(): Promise<Eviction[]>;
  /** When the session removes `GET /v1/pets/{petId}`, for the client audit's messages (the specification's date when absent). */
  removalAt?(session: string | undefined): Promise<number>;
  /** The session clock's instant that dates an admin answer (the default session for `undefined` or an unusable id). */
  dateNow(session: string | undefined): number;
}

/** A session's journal as `GET /__admin/journal` shows it. */
export interface JournalInfo {
  session: string;
  details: boolean;
  entries: number;
  capacity: number;
  total: number;
}

/** Refuses a clock change that would leave the instants a Date can hold, before anything changes. */
export function checkClockChange(now: number, change: ClockChange): void {
  if (!isValidInstant((change.set ?? now) + (change.advance ?? 0))) {
    throw new MockError('admin_invalid_request', 'that would move the clock beyond the years -271821 to 275760 a date can hold; set or advance it less far.');
  }
}

/** The order a clock change is applied in, by both state engines. */
export function applyClockChange(clock: SessionState['clock'], change: ClockChange): void {
  if (change.frozen === true) clock.freeze();
  if (change.set !== undefined) clock.set(change.set);
  if (change.advance !== undefined) clock.advance(change.advance);
  if (change.frozen === false) clock.unfreeze();
}

const DEMO_KEYS = new Set(demoKeys().map((k) => k.key));

/**
 * A key as the admin API and page show it: the public demo keys whole, every other key redacted
 * as the banner and the journal show it (a key given with --key is a secret of its owner's).
 */
export function shownKey(key: string): string {
  return DEMO_KEYS.has(key) ? key : redactKey(key);
}

/** A key's admin view from its limiter report. */
export function keyView(k: SessionSettings['keys'][number], report: { remaining: number; limit: number; reset: number; bannedUntil?: number }): KeyView {
  return {
    key: shownKey(k.key),
    plan: k.plan,
    limits: k.limits,
    revoked: k.revoked === true,
    remaining: report.remaining,
    reportedLimit: report.limit,
    reset: report.reset,
    bannedUntil: report.bannedUntil !== undefined ? new Date(report.bannedUntil).toISOString() : null,
  };
}

/** The scenarios a server can switch to, as the admin API needs them. */
export interface ScenarioLookup {
  list(): { name: string; description: string }[];
  settingsByName(name: string): SessionSettings;
  /** The current version of a scenario a session runs, its files read again; a reset applies it. */
  latest?(name: string): SessionSettings;
}

function journalInfo(w: SessionState): JournalInfo {
  return { session: w.id, details: w.journal.details, entries: w.journal.size, capacity: w.journal.capacity, total: w.journal.total };
}

/** The admin side of the in-memory sessions. */
export function memoryAdmin(sessions: SessionRegistry, scenarios: ScenarioLookup): AdminState {
  const world = (session: string | undefined): SessionState => sessions.resolve(session);
  // Reading a session (the admin page polls) must not create it: only a change does.
  const view = (session: string | undefined): SessionState => sessions.view(session);
  return {
    health: async (session) => ({ sessions: sessions.all().length, scenario: view(session).settings.scenario, state: { engine: 'memory', reachable: true } }),
    reset: async (session) => {
      const w = world(session);
      w.apply(scenarios.latest ? scenarios.latest(w.settings.scenario) : w.settings);
      return { session: w.id, scenario: w.settings.scenario, clock: w.clock.state() };
    },
    scenario: async (session) => {
      const w = view(session);
      return { name: w.settings.scenario, clock: w.clock.state() };
    },
    useScenario: async (name, session) => {
      const w = world(session);
      w.apply(scenarios.settingsByName(name));
      return { name: w.settings.scenario, session: w.id, clock: w.clock.state() };
    },
    clock: async (session) => view(session).clock.state(),
    changeClock: async (session, change) => {
      const w = world(session);
      checkClockChange(w.clock.now(), change);
      applyClockChange(w.clock, change);
      return w.clock.state();
    },
    requests: async (session, details = false) => view(session).journal.list(details),
    journal: async (session) => journalInfo(view(session)),
    recordDetails: async (session, on) => {
      const w = world(session);
      w.recordDetails(on);
      return journalInfo(w);
    },
    sessions: async () => summarizeSessions(sessions),
    evictions: async () => sessions.evictions(),
    removalAt: async (session) => view(session).settings.deprecation.removalAt,
    dateNow: (session) => {
      try {
        return view(session).clock.now();
      } catch {
        return sessions.defaultSession.clock.now();
      }
    },
    keys: async (session) => {
      const w = view(session);
      const now = w.clock.now();
      return [...w.keys.values()].map((k) => keyView(k, w.limiter.peek(keyBucket(k.key), k.limits, now)));
    },
    listScenarios: () => scenarios.list(),
  };
}
