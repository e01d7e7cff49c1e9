// The test controls of a mock's sessions, shared by the server, the Fetch handler and the browser
// build; nothing here touches the disk or the network.
import { UserError, named } from './core/errors.js';
import { INSTANT_HINT, isValidInstant, parseDuration, parseInstant, type ClockState } from './core/state/clock.js';
import type { MockEngine } from './core/pipeline/engine.js';
import type { JournalEntry } from './core/state/journal.js';
import { compileFilter, verifyEntries, type JournalFilter, type VerifyCount } from './core/state/journal-query.js';
import { summarizeSessions, type SessionSummary } from './core/state/sessions.js';
import { toHar, type Har } from './core/state/har.js';
import type { SessionState, SessionSettings } from './core/state/session-state.js';
import { assertWellBehaved, auditJournal, type AuditReport, type WellBehavedOptions } from './core/audit/audit.js';

/** The clock of the default session, as tests drive it. */
export interface MockClock {
  now(): Date;
  state(): ClockState;
  set(instant: Date | string | number): void;
  /** Advances by a duration such as '61s', '1m30s', '1d', or milliseconds. */
  advance(duration: string | number): void;
  freeze(): void;
  unfreeze(): void;
}

/** A journal filter, plus whether entries carry their recorded headers and bodies. */
export interface RequestsQuery extends JournalFilter {
  /** Include `details` (headers and bodies) in the entries that recorded them. */
  details?: boolean;
}

/** One session's world, as tests drive it: the default session, or an `X-Mock-Session` id. */
export interface SessionHandle {
  /** The session's virtual clock. */
  clock: MockClock;
  /**
   * Restores the session's store, counters, bans, clock and journal, under its current scenario
   * as its files read now; throws `ScenarioError` or another `UserError` if one has a mistake.
   */
  reset(): void;
  /** Switches the session to a scenario (a shipped name or a file path) and starts it afresh; throws `ScenarioError`. */
  useScenario(nameOrFile: string): void;
  /** The session's request journal, oldest first; a filter (`{ method: 'POST', path: '/v1/pets/*' }`) narrows it. */
  requests(query?: RequestsQuery): JournalEntry[];
  /**
   * Asserts how many requests of the journal match: `verify({ method: 'POST', path: '/v1/pets' }, 3)`.
   * Without a count, at least one. Returns the matching entries; otherwise throws an Error that lists
   * them and the near misses.
   */
  verify(filter: JournalFilter, count?: VerifyCount): JournalEntry[];
  /** Makes the session's journal keep request and answer headers and bodies (bounded, keys redacted), or stop. */
  recordDetails(on?: boolean): void;
  /**
   * The journal (a filter narrows it) as an HTTP Archive, HAR 1.2, with the headers and bodies of
   * the requests recorded with details: for a bug report, DevTools or Playwright's routeFromHAR.
   */
  har(filter?: JournalFilter): Har;
  /** Audits the requests the session received, as `GET /__admin/audit` does (docs/audit.md); `key` narrows. */
  audit(options?: { key?: string }): AuditReport;
  /**
   * Throws an Error listing every error finding of the audit (and warning, with `{ warnings: true }`):
   * `mock.expectWellBehaved()` in a test proves the client waited, backed off and stopped when told.
   */
  expectWellBehaved(options?: WellBehavedOptions): void;
}

/** The audit of a world's journal; looking creates no session. */
export function auditSession(world: SessionState, key?: string): AuditReport {
  return auditJournal(world.journal.list(true), { key, removalAt: world.settings.deprecation.removalAt });
}

/**
 * The instant `clock.set` was given, read the one way every home of state reads it: strings
 * strictly, as scenario files and the admin API read them.
 */
export function clockInstant(instant: unknown): number {
  const ms =
    instant instanceof Date ? instant.getTime() : typeof instant === 'number' ? instant : typeof instant === 'string' ? parseInstant(instant) : undefined;
  if (ms === undefined || !isValidInstant(ms)) {
    throw new RangeError(
      named(`clock.set needs a valid Date, epoch milliseconds within ±8.64e15, or ${INSTANT_HINT}; not ${JSON.stringify(instant) ?? String(instant)}.`),
    );
  }
  return ms;
}

/** The milliseconds `clock.advance` was given, for every home of state. */
export function clockDuration(duration: string | number): number {
  const ms = parseDuration(duration);
  if (ms === undefined) throw new UserError(`clock.advance needs a duration such as '61s', '1m30s' or '1d', not ${JSON.stringify(duration)}.`);
  return ms;
}

/** Wraps a world's clock for tests. */
export function clockOf(world: () => SessionState): MockClock {
  return {
    now: () => new Date(world().clock.now()),
    state: () => world().clock.state(),
    set: (instant) => world().clock.set(clockInstant(instant)),
    advance: (duration) => world().clock.advance(clockDuration(duration)),
    freeze: () => world().clock.freeze(),
    unfreeze: () => world().clock.unfreeze(),
  };
}

/** Where a mock's scenarios come from: files on the server, objects in the browser build. */
export interface ScenarioSource {
  /** The settings of a scenario by name (or, where files are read, by path). */
  settings(nameOrFile: string): SessionSettings;
  /** The current version of the scenario a session runs, for a reset; without it a reset reapplies what it has. */
  latest?(name: string): SessionSettings;
}

/**
 * The controls of one session (the default one for `undefined`); scenarios come from `scenarios`,
 * the HAR's URLs from `origin` (the server's, once it listens).
 */
export function sessionControls(
  engine: MockEngine,
  id: string | undefined,
  scenarios: ScenarioSource,
  origin = (): string => 'http://localhost',
): SessionHandle {
  const world = (): SessionState => engine.sessions.resolve(id);
  const requests = (query: RequestsQuery = {}): JournalEntry[] => {
    const { details, ...filter } = query;
    const test = compileFilter(filter);
    return world()
      .journal.list(details === true)
      .filter((e) => test.matches(e));
  };
  return {
    clock: clockOf(world),
    reset: () => {
      const w = world();
      w.apply(scenarios.latest ? scenarios.latest(w.settings.scenario) : w.settings);
    },
    useScenario: (nameOrFile) => world().apply(scenarios.settings(nameOrFile)),
    requests,
    verify: (filter, count) => verifyEntries(world().journal.list(), filter, count),
    recordDetails: (on = true) => world().recordDetails(on),
    har: (filter = {}) => toHar(requests({ ...filter, details: true }), origin()),
    audit: (options = {}) => auditSession(engine.sessions.view(id), options.key),
    expectWellBehaved: (options = {}) => {
      assertWellBehaved(auditSession(engine.sessions.view(id), options.key), options);
    },
  };
}

/** The sessions of an engine, as `GET /__admin/sessions` lists them. */
export function listSessions(engine: MockEngine): SessionSummary[] {
  return summarizeSessions(engine.sessions);
}
