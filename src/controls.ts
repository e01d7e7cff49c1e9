// The session controls of every home of state (src/README.md); nothing here touches the disk or the network.
import { MockError, UserError, named } from './core/errors.js';
import { INSTANT_HINT, isValidInstant, parseDuration, parseInstant, type ClockState } from './core/state/clock.js';
import type { Answer, ClockChange, SessionOps } from './core/state/backend.js';
import { unsupportedOnThisHome } from './core/state/unsupported.js';
import type { SnapshotDocument } from './core/state/snapshot.js';
import type { JournalEntry } from './core/state/journal.js';
import { compileFilter, verifyEntries, type JournalFilter, type VerifyCount } from './core/state/journal-query.js';
import { toHar, type Har } from './core/state/har.js';
import type { SessionState } from './core/state/session-state.js';
import { assertWellBehaved, auditJournal, journalKeys, type AuditReport, type AuditScope, type WellBehavedOptions } from './core/audit/audit.js';
import { andThen, mapFailure, thenBoth, type Maybe } from './core/maybe.js';

export type { Answer } from './core/state/backend.js';

/** A session's virtual clock, as tests drive it. */
export interface MockClock<A extends boolean = false> {
  now(): Answer<Date, A>;
  state(): Answer<ClockState, A>;
  /** Sets the clock: a Date, epoch milliseconds, or an ISO-8601 instant with its offset. */
  set(instant: Date | string | number): Answer<void, A>;
  /** Advances by a duration such as '61s', '1m30s', '1d', or milliseconds. */
  advance(duration: string | number): Answer<void, A>;
  freeze(): Answer<void, A>;
  unfreeze(): Answer<void, A>;
}

/** A journal filter, plus whether entries carry their recorded headers and bodies. */
export interface RequestsQuery extends JournalFilter {
  /** Include `details` (headers and bodies) in the entries that recorded them. */
  details?: boolean;
}

/**
 * One session as tests drive it: the default session, or an `X-Mock-Session` id. In memory every
 * member answers at once; on a shared state (`SessionHandle<true>`) the same members answer with a
 * promise. Looking (the clock, the journal, the audit) never creates a session; a change does.
 */
export interface SessionHandle<A extends boolean = false> {
  /** The session's virtual clock. */
  clock: MockClock<A>;
  /**
   * Restores the session's store, counters, bans, clock and journal, under its current scenario
   * as its files read now; throws `ScenarioError` or another `UserError` if one has a mistake.
   */
  reset(): Answer<void, A>;
  /** Switches the session to a scenario (a shipped name or a file path) and starts it afresh; throws `ScenarioError`. */
  useScenario(nameOrFile: string): Answer<void, A>;
  /** The session's request journal, oldest first; a filter (`{ method: 'POST', path: '/v1/pets/*' }`) narrows it. */
  requests(query?: RequestsQuery): Answer<JournalEntry[], A>;
  /**
   * Asserts how many requests of the journal match: `verify({ method: 'POST', path: '/v1/pets' }, 3)`.
   * Without a count, at least one. Returns the matching entries; otherwise throws an Error that lists
   * them and the near misses.
   */
  verify(filter: JournalFilter, count?: VerifyCount): Answer<JournalEntry[], A>;
  /** Makes the session's journal keep request and answer headers and bodies (bounded, keys redacted), or stop. */
  recordDetails(on?: boolean): Answer<void, A>;
  /**
   * The journal (a filter narrows it) as an HTTP Archive, HAR 1.2, with the headers and bodies of
   * the requests recorded with details: for a bug report, DevTools or Playwright's routeFromHAR.
   */
  har(filter?: JournalFilter): Answer<Har, A>;
  /** Audits the requests the session received, as `GET /__admin/audit` does (docs/audit.md); `key` narrows. */
  audit(options?: { key?: string }): Answer<AuditReport, A>;
  /**
   * Throws an Error listing every error finding of the audit (and warning, with `{ warnings: true }`):
   * `mock.expectWellBehaved()` in a test proves the client waited, backed off and stopped when told.
   */
  expectWellBehaved(options?: WellBehavedOptions): Answer<void, A>;
  /**
   * The session as a `petstore-mock/snapshot` document (docs/snapshots.md): store, windows and bans,
   * clock, scenario and its position, journal. JSON-safe: write it with `JSON.stringify`.
   */
  snapshot(): Answer<SnapshotDocument, A>;
  /**
   * Replaces the session's state with a snapshot's (from any session or mock): from then on it
   * answers as the source would have. A wrong document throws a `UserError` naming the field by
   * JSON pointer, and changes nothing.
   */
  restore(document: SnapshotDocument | object): Answer<void, A>;
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

/** Wraps one session state's clock for tests (the library's `clockOf`). */
export function clockOf(state: () => SessionState): MockClock {
  return {
    now: () => new Date(state().clock.now()),
    state: () => state().clock.state(),
    set: (instant) => state().clock.set(clockInstant(instant)),
    advance: (duration) => state().clock.advance(clockDuration(duration)),
    freeze: () => state().clock.freeze(),
    unfreeze: () => state().clock.unfreeze(),
  };
}

const done = (): void => undefined;

/** The admin API's 400 for a clock beyond what a date can hold is, in the library, the RangeError a Date would throw. */
function clockRangeError(error: unknown): unknown {
  return error instanceof MockError && error.code === 'admin_invalid_request' ? new RangeError(named(`the clock cannot move there: ${error.message}`)) : error;
}

/**
 * The controls of one session (the default one for `undefined`) over a home's operations; the HAR's
 * URLs come from `origin` (the server's, once it listens). `asynchronous` says the operations
 * answer with promises: then a mistake found before asking (a wrong instant) rejects too, rather than throwing.
 */
export function sessionHandle<A extends boolean>(
  ops: SessionOps<A>,
  id: string | undefined,
  asynchronous: A,
  origin = (): string => 'http://localhost',
): SessionHandle<A> {
  // One implementation for both homes: `Answer<T, boolean>` is `T | Promise<T>`.
  const home = ops as SessionOps<boolean>;
  const guard =
    <P extends unknown[], U>(fn: (...args: P) => Maybe<U>) =>
    (...args: P): Maybe<U> => {
      if (!asynchronous) return fn(...args);
      try {
        return Promise.resolve(fn(...args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  const change = (c: ClockChange): Maybe<void> =>
    andThen(
      mapFailure(() => home.changeClock(id, c), clockRangeError),
      done,
    );
  const requests = (query: RequestsQuery = {}): Maybe<JournalEntry[]> => {
    const { details, ...filter } = query;
    const test = compileFilter(filter, home.keyIds);
    return andThen(home.requests(id, details === true), (entries) => entries.filter((e) => test.matches(e)));
  };
  const audited = (key: string | undefined): Maybe<{ entries: JournalEntry[]; report: AuditReport }> =>
    thenBoth(home.requests(id, true), home.removalAt(id), (entries, removalAt) => ({
      entries,
      report: auditJournal(entries, { key, removalAt, keyIds: home.keyIds }),
    }));
  /** What an audit that judged nothing names: the keys of this journal, and the sessions that have requests. */
  const scope = (entries: JournalEntry[]): Maybe<AuditScope> => {
    const keys = journalKeys(entries);
    if (!home.sessions) return { session: id, keys };
    return andThen(home.sessions(), (all) => ({ session: id, keys, sessions: all.map((s) => ({ id: s.id, requests: s.requests })) }));
  };
  const expectWellBehaved = (options: WellBehavedOptions = {}): Maybe<void> => {
    const finish = ({ entries, report }: { entries: JournalEntry[]; report: AuditReport }): Maybe<void> => {
      if (report.judged.requests > 0) {
        assertWellBehaved(report, options, { session: id });
        return;
      }
      return andThen(scope(entries), (found) => void assertWellBehaved(report, options, found));
    };
    return andThen(audited(options.key), finish);
  };
  const snapshotFailure = (error: unknown): unknown =>
    error instanceof MockError && ['snapshot_invalid', 'snapshot_unsupported', 'store_full', 'invalid_session'].includes(error.code)
      ? new UserError(error.message)
      : error;
  const handle: SessionHandle<boolean> = {
    clock: {
      now: guard(() => andThen(home.clock(id), (c) => new Date(c.now))),
      state: guard(() => home.clock(id)),
      // Parsed before the home is asked: a wrong value changes nothing.
      set: guard((instant: Date | string | number) => change({ set: clockInstant(instant) })),
      advance: guard((duration: string | number) => change({ advance: clockDuration(duration) })),
      freeze: guard(() => change({ frozen: true })),
      unfreeze: guard(() => change({ frozen: false })),
    },
    reset: guard(() => andThen(home.reset(id), done)),
    useScenario: guard((nameOrFile: string) => andThen(home.useScenario(nameOrFile, id, false), done)),
    requests: guard(requests),
    verify: guard((filter: JournalFilter, count?: VerifyCount) => andThen(home.requests(id), (entries) => verifyEntries(entries, filter, count, home.keyIds))),
    recordDetails: guard((on = true) => andThen(home.recordDetails(id, on), done)),
    har: guard((filter: JournalFilter = {}) => andThen(requests({ ...filter, details: true }), (entries) => toHar(entries, origin()))),
    audit: guard((options: { key?: string } = {}) => andThen(audited(options.key), ({ report }) => report)),
    snapshot: guard(() =>
      mapFailure(() => {
        if (!home.snapshot) throw unsupportedOnThisHome('snapshots');
        return home.snapshot(id);
      }, snapshotFailure),
    ),
    restore: guard((document: object) =>
      andThen(
        mapFailure(() => {
          if (!home.restore) throw unsupportedOnThisHome('snapshots');
          return home.restore(id, document);
        }, snapshotFailure),
        done,
      ),
    ),
    expectWellBehaved: guard(expectWellBehaved),
  };
  // The members answer at once exactly when the operations do, which `A` says.
  return handle as unknown as SessionHandle<A>;
}
