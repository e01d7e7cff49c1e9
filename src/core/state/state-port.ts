// The narrow port between the pipeline and a home of a session's state. The pipeline runs every
// check that needs no state, then asks the home once ("decide this request"); the home answers
// in the core's own terms. In memory the answer is synchronous (memory-port.ts), on Redis a
// promise (src/state-redis/redis-port.ts); the pipeline (core/pipeline/pipeline.ts) never sees how.
import type { MockError } from '../errors.js';
import type { JournalEntry } from './journal.js';
import type { KeyIds } from './key-id.js';
import type { RateDecision, RateReport } from './limiter.js';
import type { ForcedAnswer, SessionSettings } from './session-state.js';
import type { SnapshotDocument } from './snapshot.js';
import type { RestoredState } from './snapshot-restore.js';
import type { CoreRequest, Limits, OperationId } from '../types.js';

/** What one request asks of the session's state, found by the checks that need none. */
export interface StateAsk {
  /** `peek`: only report the window (preflight, document, OPTIONS, answers fixed before the checks); `take`: count the request. */
  mode: 'peek' | 'take';
  bucket: string;
  limits: Limits;
  /** Whether the limit may refuse: yes, or no (an earlier check failed). It may not either once the operation is removed. */
  enforce: 'yes' | 'no';
  /** Whether the operation has a removal date the home judges on the session's clock (a deprecated one). */
  removal?: boolean;
  /** The operation to run once the limit allows it; absent when an earlier check failed. */
  operation?: OperationId;
  /** The valid key the request sent, for scenario steps that match on it. */
  key?: string;
  /** The operation's input, read by its module (core/operations), when it is valid (an invalid one still takes its scenario step). */
  input?: unknown;
  /** The operationId of a declared operation to run once the limit allows it: the home counts its calls. */
  declared?: string;
}

/** Finds what a request asks under the settings its session runs. */
export type Planner<P extends StateAsk> = (req: CoreRequest, settings: SessionSettings) => P;

/** What the operation read or wrote: a body (none for an operation that only writes) and a created animal's id, or why the store refused. */
export type OperationData = { body?: string; createdId?: string } | { error: MockError };

/** What the home decided for one request, in the core's terms. */
export interface Decision<H, P extends StateAsk> {
  /** The home's own handle of the session (memory: its state; Redis: its epoch), given back to `record`. */
  home: H;
  plan: P;
  session: string;
  settings: SessionSettings;
  /** The session clock's instant of the decision, and the real time then. */
  now: number;
  real: number;
  /** Whether the session's journal records headers and bodies. */
  details: boolean;
  /** The number of this request's journal entry. */
  seq: number;
  /** When an earlier state of this session was dropped to make room; said once. */
  evictedAt?: string;
  rate: RateDecision;
  /** Whether the operation's removal date has passed on the session's clock (only asked with `removal`). */
  removed: boolean;
  /** The answer a scenario step or the chaos forced. */
  forced?: ForcedAnswer;
  latencyMs: number;
  /** The operation's data; absent when it did not run or found nothing (an unknown id). */
  data?: OperationData;
  /** For a declared operation that ran: how many calls it had answered before this one (which answer is due). */
  declaredCall?: number;
}

/** A home of a session's state. */
export interface StatePort<H> {
  /** The settings new sessions start with. */
  readonly startSettings: SessionSettings;
  /** The deployment's key ids, salted with its own salt: the journal's `keyId` of every valid key. */
  readonly keyIds: KeyIds;
  /** Decides one request for session `sid` (an id already checked); synchronous where the state is at hand. */
  decide<P extends StateAsk>(sid: string, req: CoreRequest, planner: Planner<P>): Decision<H, P> | Promise<Decision<H, P>>;
  /** Keeps an answered request's journal entry; `answeredAt` is the `performance.now()` the answer was finished at. */
  record(decision: Decision<H, StateAsk>, entry: JournalEntry, answeredAt: number): void;
  /** The settings a session most likely runs under, for answers given without deciding (a 503). */
  guess(sid: string): SessionSettings;
  /** The window of a client without a key and the instant it is shown at, for answers given outside the pipeline (431). */
  anonymousReport(address: string | undefined): { report: RateReport; now: number };
  /**
   * The session `sid` as a snapshot document (snapshot.ts), without creating it. The Redis home
   * answers snapshots and restores through its admin calls instead (RedisAdmin), which declare
   * the session's keys as every admin call does.
   */
  snapshot?(sid: string): SnapshotDocument | Promise<SnapshotDocument>;
  /**
   * Replaces session `sid`'s whole state with a checked snapshot (`readSnapshot`), atomically: no
   * request of the session sees half of it, and a refusal (`store_full`) leaves it as it was.
   */
  restore?(sid: string, restored: RestoredState): void | Promise<void>;
}
