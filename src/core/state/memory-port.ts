// The in-memory home of the sessions' state behind the pipeline's port: it decides a request at
// once, with the rules the Redis home runs as Lua twins (limiter.ts, store.ts, journal.ts,
// sessions.ts and the scenario runtime).
import type { KeyIds } from './key-id.js';
import { SPEC_MODULES } from '../operations/index.js';
import { HOME_STEPS } from '../check-order.js';
import type { JournalEntry } from './journal.js';
import type { RateDecision, RateReport } from './limiter.js';
import { addressBucket, type ForcedAnswer, type SessionState, type SessionSettings } from './session-state.js';
import type { SessionRegistry } from './sessions.js';
import type { Decision, OperationData, Planner, StateAsk, StatePort } from './state-port.js';
import type { CoreRequest } from '../types.js';
import type { SnapshotDocument } from './snapshot.js';
import type { RestoredState } from './snapshot-restore.js';
import type { SnapshotSupport } from './snapshot-support.js';
import { unsupportedOnThisHome } from './unsupported.js';

/** The `StatePort` of sessions held in this process. */
export class MemoryPort implements StatePort<SessionState> {
  /** `snapshots`: how to take and restore one; without it (the browser build) both are refused. */
  constructor(
    readonly sessions: SessionRegistry,
    private readonly snapshots?: SnapshotSupport,
  ) {}

  get startSettings(): SessionSettings {
    return this.sessions.startSettings();
  }

  get keyIds(): KeyIds {
    return this.sessions.keyIds;
  }

  decide<P extends StateAsk>(sid: string, req: CoreRequest, planner: Planner<P>): Decision<SessionState, P> {
    const state = this.sessions.resolveId(sid);
    // A session that records details keeps its state from before each request, for `?before=SEQ`.
    if (state.journal.details) this.snapshots?.keepBefore(state);
    // Read once: the checks, the answer's headers and the journal entry all use this instant.
    const now = state.clock.now();
    const { settings, limiter, runtime } = state;
    const plan = planner(req, settings);
    let rate: RateDecision | undefined;
    let removed = false;
    let forced: ForcedAnswer | undefined;
    let latencyMs = 0;
    let data: OperationData | undefined;
    let declaredCall: number | undefined;
    if (plan.mode === 'peek') {
      rate = { outcome: 'allowed', report: limiter.peek(plan.bucket, plan.limits, now) };
    } else {
      let enforce = false;
      // Whether the operation goes on: the limit allowed a request it may refuse.
      let goesOn = false;
      // The home's steps in the one order of checks (core/check-order.ts); the Redis home walks the same list in Lua.
      for (const step of HOME_STEPS) {
        switch (step) {
          case 'removal':
            removed = plan.removal === true && now >= settings.deprecation.removalAt;
            enforce = plan.enforce === 'yes' && !removed;
            break;
          case 'limit':
            rate = limiter.take(plan.bucket, plan.limits, now, enforce);
            goesOn = enforce && rate.outcome === 'allowed';
            break;
          case 'scenario':
            if (goesOn && plan.operation !== undefined) forced = runtime?.intercept(plan.operation, req, plan.key);
            break;
          case 'refund':
            if (forced?.status === 429) limiter.refund(plan.bucket, now);
            break;
          case 'operation':
            if (!goesOn || forced !== undefined) break;
            if (plan.operation !== undefined && plan.input !== undefined) data = SPEC_MODULES[plan.operation].run(state.store, plan.input);
            else if (plan.declared !== undefined) {
              declaredCall = state.declaredCalls.get(plan.declared) ?? 0;
              state.declaredCalls.set(plan.declared, declaredCall + 1);
            }
            break;
          case 'latency':
            if (runtime) latencyMs = runtime.latency(plan.operation);
            break;
          default: {
            const unwritten: never = step;
            throw new Error(`the in-memory home has no step ${String(unwritten)}`);
          }
        }
      }
      if (rate === undefined) throw new Error('the in-memory home walked no limit step');
    }
    const evictedAt = state.evictedAt;
    // Said once: the next answer of this session no longer carries it.
    state.evictedAt = undefined;
    return {
      home: state,
      plan,
      session: state.id,
      settings,
      now,
      real: state.clock.isReal ? now : state.clock.realTime(),
      details: state.journal.details,
      seq: state.journal.nextSeq(),
      evictedAt,
      rate,
      removed,
      forced,
      latencyMs,
      data,
      declaredCall,
    };
  }

  record(decision: Decision<SessionState, StateAsk>, entry: JournalEntry, answeredAt: number): void {
    decision.home.lastUsed = answeredAt;
    decision.home.journal.add(entry);
  }

  guess(sid: string): SessionSettings {
    return this.sessions.view(sid).settings;
  }

  snapshot(sid: string): SnapshotDocument {
    // Looking creates no session: an unknown one is taken as it would start.
    if (!this.snapshots) throw unsupportedOnThisHome('snapshots');
    return this.snapshots.take(this.sessions.view(sid));
  }

  restore(sid: string, restored: RestoredState): void {
    // Checked and built against the session as it stands (an unknown one is not created yet), then
    // swapped in one synchronous call: a failed restore changes nothing, and no request of the
    // session runs between its parts. What was kept of the states before its requests goes with it.
    if (!this.snapshots) throw unsupportedOnThisHome('snapshots');
    const commit = this.snapshots.prepareRestore(this.sessions.probe(sid), restored);
    const state = this.sessions.resolveId(sid);
    commit(state);
    this.snapshots.forgetBefore(state);
  }

  anonymousReport(address: string | undefined): { report: RateReport; now: number } {
    const state = this.sessions.defaultSession;
    const now = state.clock.now();
    return { report: state.limiter.peek(addressBucket(address), state.settings.anonymousLimits, now), now };
  }
}
