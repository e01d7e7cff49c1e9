// The operations a session's test controls and the admin API share (SessionOps), by name, and the
// one forwarder that answers them as promises, asked of a source when called: for the in-memory
// admin, and for a shared mock whose Redis is not opened yet. An operation added to SessionOps
// fails to compile until it is named in SESSION_OPS.
import { MockError } from '../errors.js';
import type { ClockState } from './clock.js';
import type { KeyIds } from './key-id.js';
import type { JournalEntry } from './journal.js';
import type { SessionSummary } from './sessions.js';
import type { SnapshotDocument } from './snapshot.js';

/** A change of a session's clock as `POST /__admin/clock` asks for it, already parsed. */
export interface ClockChange {
  set?: number;
  advance?: number;
  frozen?: boolean;
}

/** A value of a session's controls: given at once where the state is at hand, a promise where it is asked (`A` true). */
export type Answer<T, A extends boolean> = A extends true ? Promise<T> : T;

/** What a session's test controls read and change; `session` is the `X-Mock-Session` value. Reading never creates a session. */
export interface SessionOps<A extends boolean> {
  /**
   * The deployment's key ids (salted), to find a whole key's requests by `keyId`. A mock in another
   * process keeps its salt to itself: its controls find a whole key's requests by how the key shows.
   */
  readonly keyIds?: KeyIds;
  reset(session: string | undefined): Answer<{ session: string; scenario: string; clock: ClockState }, A>;
  /** Switches a session to a scenario by name (`byName`, as over HTTP) or, for the library, by name or file path; throws `ScenarioError`. */
  useScenario(name: string, session: string | undefined, byName?: boolean): Answer<{ name: string; session: string; clock: ClockState }, A>;
  clock(session: string | undefined): Answer<ClockState, A>;
  changeClock(session: string | undefined, change: ClockChange): Answer<ClockState, A>;
  /** The journal, oldest first; with `details`, the recorded headers and bodies too. */
  requests(session: string | undefined, details?: boolean): Answer<JournalEntry[], A>;
  /** Switches recording of details for a session; it outlives resets and scenario switches. */
  recordDetails(session: string | undefined, on: boolean): Answer<JournalInfo, A>;
  /** When the session removes `GET /v1/pets/{petId}`, for the client audit's messages. */
  removalAt(session: string | undefined): Answer<number, A>;
  /**
   * The session as a `petstore-mock/snapshot` document. Both homes of the Node package have it; the
   * browser bundle does not (the call is refused with `snapshot_unsupported`).
   */
  snapshot?(session: string | undefined): Answer<SnapshotDocument, A>;
  /** Replaces the session's state with a snapshot's, all or nothing; throws `snapshot_invalid` for a wrong document. */
  restore?(session: string | undefined, document: unknown): Answer<{ session: string; scenario: string; clock: ClockState }, A>;
  /** Switches the session to a scenario given as an object (checked as a file is); throws `scenario_invalid` naming each wrong field. */
  applyScenario?(session: string | undefined, scenario: unknown): Answer<{ name: string; session: string; clock: ClockState }, A>;
  /** Every session, for the client audit to name those with requests when it judged none. */
  sessions?(): Answer<SessionSummary[], A>;
}

/** A session's journal as `GET /__admin/journal` shows it. */
export interface JournalInfo {
  session: string;
  details: boolean;
  entries: number;
  capacity: number;
  total: number;
}

/** Every member of `SessionOps` but `keyIds`, by name: `everyOpNamed` fails to compile while one is missing. */
const SESSION_OPS = [
  'reset',
  'useScenario',
  'clock',
  'changeClock',
  'requests',
  'recordDetails',
  'removalAt',
  'snapshot',
  'restore',
  'applyScenario',
  'sessions',
] as const;
type SessionOpName = (typeof SESSION_OPS)[number];
const everyOpNamed: [Exclude<keyof SessionOps<false>, SessionOpName | 'keyIds'>] extends [never] ? true : never = true;
void everyOpNamed;

/**
 * The operations `source` has, each answering with a promise, asked of `source()` when called: the
 * in-memory controls for the admin API, or a shared state's admin not yet opened. `names` are the
 * operations offered (an absent one is refused by the caller, as the browser's `snapshot`).
 */
export function forwardedOps(
  source: () => SessionOps<boolean> | Promise<SessionOps<boolean>>,
  names: readonly SessionOpName[] = SESSION_OPS,
): Omit<SessionOps<true>, 'keyIds'> {
  const ops: Partial<Record<SessionOpName, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const name of names) {
    ops[name] = async (...args) => {
      const target = await source();
      const op = target[name] as ((...a: unknown[]) => unknown) | undefined;
      if (op === undefined) throw new MockError('internal_error', `this home of state does not offer ${name}; a bug in the mock, please report it.`);
      return op.apply(target, args);
    };
  }
  return ops as Omit<SessionOps<true>, 'keyIds'>;
}

/** The operations an object offers, by name. */
export function offeredOps(ops: SessionOps<boolean>): SessionOpName[] {
  return SESSION_OPS.filter((name) => ops[name] !== undefined);
}
