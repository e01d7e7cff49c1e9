import { VirtualClock, clampInstant, type TimeSource } from './clock.js';
import type { DeprecationDates } from '../pipeline/deprecation.js';
import type { ErrorCode } from '../errors.js';
import { DEFAULT_JOURNAL_BYTES, Journal } from './journal.js';
import type { Budgets } from './budget.js';
import { RateLimiter } from './limiter.js';
import { MAX_CACHED_BODY_BYTES, MAX_CREATED_BYTES, MAX_CREATED_PETS, PetStore } from './store.js';
import { BaseData } from './base-data.js';
import type { BanRule, ConnectionFault, CoreRequest, KeyConfig, Limits, OperationId } from '../types.js';
import type { RuntimePosition, RuntimeSpec } from '../scenarios/runtime-spec.js';
import type { ScenarioSpec } from '../scenarios/scenario-spec.js';
import type { DeclaredOperation } from '../scenarios/declared-operations.js';
import type { CompiledProfile } from '../scenarios/profile.js';

export type { OperationId } from '../types.js';

/** An answer a scenario forces instead of the normal one. */
export interface ForcedAnswer {
  status: number;
  /** The error code; a forced success has none. */
  code?: ErrorCode;
  /** A forced success's body, checked against the document when the scenario was loaded (none where the document gives none). */
  body?: string;
  /** A forced success's Location, where the document gives the success one. */
  location?: string;
  message?: string;
  /** Seconds for `Retry-After` (a forced 429 always has it). */
  retryAfter?: number;
  fault?: ConnectionFault;
  /** Why, for the journal: "scenario flaky, step 2". */
  reason: string;
}

/** What a scenario does at run time: forced answers and latency. */
export interface ScenarioRuntime {
  /** Called for API requests that passed routing, auth and the rate limit; a result replaces the operation's answer. */
  intercept(operation: OperationId, req: CoreRequest, key: string | undefined): ForcedAnswer | undefined;
  /** Milliseconds to delay this answer (0 for none); a profile's latency depends on the operation. */
  latency(operation?: OperationId): number;
  /** Where the session is in its scenario, for a snapshot. */
  position?(): RuntimePosition;
}

/** Everything that decides how a session behaves; scenarios produce it, `reset` re-applies it. */
export interface SessionSettings {
  scenario: string;
  base: BaseData;
  keys: readonly KeyConfig[];
  anonymousLimits: Limits;
  ban: BanRule;
  deprecation: DeprecationDates;
  clock: { start?: number; frozen: boolean };
  /** Usage preset at the start: a count for each window of the key, and a ban. */
  usage: readonly { key: string; counts: readonly { lengthMs: number; count: number }[]; bannedForMs?: number }[];
  journalSize: number;
  /** Whether the journal keeps request and answer headers and bodies (off unless asked for). */
  journalDetails?: boolean;
  /** How `Retry-After` is written: whole seconds (the default), or an HTTP-date from the session clock. */
  retryAfterFormat?: 'seconds' | 'http-date';
  /** Makes a fresh runtime (step counters, seeded random) each time the settings are applied. */
  runtime?: () => ScenarioRuntime;
  /** What `runtime` runs, for a shared state that keeps the steps' positions elsewhere. */
  runtimeSpec?: RuntimeSpec;
  /** The scenario as its file or object held it: `GET /__admin/scenario` shows it, a snapshot carries it. */
  definition?: ScenarioSpec;
  /** Operations the scenario declares beside the specification's (declared-operations.ts). */
  operations?: readonly DeclaredOperation[];
  /**
   * Set for settings made from an object (`PUT /__admin/scenario {"scenario": …}`, a restored
   * snapshot) rather than a file: a reset re-applies them as they are, not a file of that name.
   */
  inline?: boolean;
  /** A deployment's profile (`--profile`, a scenario's `profile:`): its latency and every key's limits. */
  profile?: CompiledProfile;
}

/**
 * One isolated state: store, counters, bans, clock, scenario and journal. The default session and
 * every `X-Mock-Session` id each have one.
 */
export class SessionState {
  readonly clock: VirtualClock;
  readonly store: PetStore;
  readonly limiter: RateLimiter;
  journal: Journal;
  keys = new Map<string, KeyConfig>();
  settings!: SessionSettings;
  runtime: ScenarioRuntime | undefined;
  /** Per declared operation (by operationId), how many calls it has answered: which answer comes next. */
  declaredCalls = new Map<string, number>();
  /**
   * When an earlier state of this session id was dropped to make room (least recently used), the
   * instant it was: the next API answer says so, once.
   */
  evictedAt: string | undefined;
  /** `performance.now()` of the last API request (or of the creation): sessions list their last use. */
  lastUsed = performance.now();
  /** Set by the admin API or the library: recording of details that outlives a reset. */
  detailsOverride: boolean | undefined;

  constructor(
    readonly id: string,
    settings: SessionSettings,
    realNow: TimeSource,
    private readonly budgets: Budgets,
  ) {
    this.clock = new VirtualClock(realNow);
    this.store = new PetStore(settings.base, {
      maxCreated: MAX_CREATED_PETS,
      maxCreatedBytes: MAX_CREATED_BYTES,
      maxCachedBodyBytes: MAX_CACHED_BODY_BYTES,
      created: budgets.created,
      listBodies: budgets.listBodies,
    });
    this.limiter = new RateLimiter(settings.ban);
    this.journal = this.newJournal(settings.journalSize);
    this.apply(settings);
  }

  private newJournal(size: number): Journal {
    return new Journal(size, DEFAULT_JOURNAL_BYTES, this.budgets.journal);
  }

  /** Gives back to the shared budgets what this state holds; it is being dropped. */
  release(): void {
    this.journal.clear();
    this.store.release();
  }

  /** Applies settings afresh: store, counters, bans, clock, journal and scenario state. */
  apply(settings: SessionSettings): void {
    this.settings = settings;
    this.store.reset(settings.base);
    this.limiter.clear();
    this.limiter.setBanRule(settings.ban);
    this.journal.clear();
    if (this.journal.capacity !== settings.journalSize) this.journal = this.newJournal(settings.journalSize);
    this.journal.details = this.detailsOverride ?? settings.journalDetails === true;
    this.keys = new Map(settings.keys.map((k) => [k.key, k]));
    this.clock.restore();
    // Frozen first: set then frozen would let real time run between the two.
    if (settings.clock.frozen) this.clock.freeze();
    if (settings.clock.start !== undefined) this.clock.set(settings.clock.start);
    const now = this.clock.now();
    for (const u of settings.usage) {
      const bannedUntil = u.bannedForMs !== undefined ? clampInstant(Math.ceil((now + u.bannedForMs) / 1000) * 1000) : undefined;
      this.limiter.preset(keyBucket(u.key), now, { counts: u.counts, bannedUntil });
    }
    this.runtime = settings.runtime?.();
    this.declaredCalls.clear();
  }

  reset(): void {
    this.apply(this.settings);
  }

  /** Turns recording of headers and bodies on or off for this session; resets and scenario switches keep the choice. */
  recordDetails(on: boolean): void {
    this.detailsOverride = on;
    this.journal.details = on;
  }
}

/** The limiter bucket of a key. */
export function keyBucket(key: string): string {
  return `key:${key}`;
}

/** The limiter bucket of a client without a valid key. */
export function addressBucket(address: string | undefined): string {
  return `addr:${address ?? 'unknown'}`;
}
