// The narrow port between the pipeline and a home of state that answers asynchronously (Redis):
// "decide this request" in named fields, and what the decision means in the core's own terms.
// A home implements `StatePort`; the pipeline (core/pipeline/port-engine.ts) never sees how.
import { named } from '../errors.js';
import { forceAnswer, stepName } from '../scenarios/scenario-runtime.js';
import { BAN_IN_FLIGHT, NOT_COUNTED, type BanCount, type RateDecision, type RateReport } from './limiter.js';
import type { ForcedAnswer, WorldSettings } from './world.js';

const TWO_32 = 4294967296;

/** What one request asks of the session's state, in named fields. */
export interface DecideInput {
  mode: 'peek' | 'take';
  bucket: string;
  pm: number;
  pd: number;
  /** Whether the limit refuses: yes, no (an earlier check failed), or unless the removal date passed. */
  enforce?: 'yes' | 'no' | 'removal';
  removalAt?: number;
  rule?: { after: number; ms: number; inFlight: number };
  /** Per step, the answer's one-letter kind when the step matches this request, else '-'. */
  steps?: string;
  times?: number[];
  rep?: boolean;
  chaos?: { p: number; c: string }[];
  lat?: boolean;
  op?: '' | 'none' | 'list' | 'get' | 'create';
  status?: string;
  count?: number;
  index?: number;
  tail?: string;
  bytes?: number;
  maxCreated?: number;
  maxBytes?: number;
}

/** The limiter's part of a decision (large numbers as strings: Lua's JSON keeps 14 digits). */
export interface PortRateDecision {
  outcome: 'allowed' | 'limited' | 'banned' | 'peeked';
  window?: 'minute' | 'day';
  report: { limit: string | number; remaining: string | number; reset: string; retryAfter?: number };
  bannedUntil?: string;
  justBanned?: boolean;
  ban?: { counted: boolean; count: number; after: number; why: string };
}

/** What the home decided for one request. */
export interface Decided {
  now: string;
  real: string;
  /** Recording of details chosen for the session ('1', '0'), or '' for the settings' choice. */
  details: string;
  seq: number;
  /** The session's epoch: an entry of a session reset since is let go. */
  ep: string;
  /** When an earlier session of this id was evicted (epoch ms), or ''. */
  evicted: string;
  decision: PortRateDecision;
  step?: number;
  nth?: number;
  chaos?: number;
  latency?: number;
  /** What the operation read or wrote: created animals, one animal, or the new id. */
  data?: string | string[] | Record<string, never> | false;
  /** Why a create found no room: no id left, or the session's bounds. */
  full?: 'id' | 'room';
}

/** A journal entry on its way to the home, with what bounds it there. */
export interface RecordedEntry {
  sid: string;
  seq: number;
  ep: string;
  entry: string;
  bytes: number;
  cap: number;
  maxBytes: number;
}

/** A home of state the pipeline asks asynchronously. */
export interface StatePort {
  /** The settings new sessions start with. */
  readonly startSettings: WorldSettings;
  /**
   * Decides one request for session `sid`. `plan` gives the request's fields under the settings
   * the session runs; the home calls it again if the session's settings were not those it guessed.
   */
  decide(sid: string, plan: (settings: WorldSettings) => DecideInput): Promise<{ settings: WorldSettings; decided: Decided }>;
  /** The settings a session most likely runs under, for answers given without asking (a 503). */
  guess(sid: string): WorldSettings;
  /** Keeps an answered request's journal entry. */
  record(entry: RecordedEntry): void;
}

function banWhy(why: string, inFlight: number): string | undefined {
  if (why === 'banned') return NOT_COUNTED.banned;
  if (why === 'off') return NOT_COUNTED.off;
  if (why === 'inflight') return NOT_COUNTED.inFlight(inFlight);
  return undefined;
}

/** The limiter decision the home took, as `RateLimiter.take` gives it. */
export function decisionOf(d: PortRateDecision, inFlight = BAN_IN_FLIGHT): RateDecision {
  const report: RateReport = { limit: Number(d.report.limit), remaining: Number(d.report.remaining), reset: Number(d.report.reset) };
  if (d.report.retryAfter !== undefined) report.retryAfter = Number(d.report.retryAfter);
  let ban: BanCount | undefined;
  if (d.ban) {
    ban = { counted: d.ban.counted, count: d.ban.count, after: d.ban.after };
    const why = banWhy(d.ban.why, inFlight);
    if (why !== undefined) ban.why = why;
  }
  if (d.outcome === 'allowed' || d.outcome === 'peeked') return { outcome: 'allowed', report };
  const decision: RateDecision =
    d.outcome === 'banned'
      ? { outcome: 'banned', report, bannedUntil: Number(d.bannedUntil), justBanned: d.justBanned === true }
      : { outcome: 'limited', window: d.window === 'day' ? 'day' : 'minute', report };
  if (ban) decision.ban = ban;
  return decision;
}

/** The answer a scenario forced, from the step or chaos draw the home took. */
export function forcedOf(settings: WorldSettings, d: Decided): ForcedAnswer | undefined {
  const spec = settings.runtimeSpec;
  if (!spec) return undefined;
  if (d.step !== undefined) {
    const step = spec.steps[d.step];
    if (step === undefined)
      throw new Error(
        named(`the shared state names step ${d.step} of scenario ${spec.scenario}, which has ${spec.steps.length}; reset the session (POST /__admin/reset).`),
      );
    return forceAnswer(spec.scenario, step.answer, stepName(d.step, d.nth ?? 1, step.times));
  }
  if (d.chaos !== undefined && spec.chaos) {
    let draw = d.chaos / TWO_32;
    for (const { probability, answer } of spec.chaos.answers) {
      if (draw < probability) return forceAnswer(spec.scenario, answer, 'chaos');
      draw -= probability;
    }
  }
  return undefined;
}

/** The scenario's latency for this answer, from the home's draw. */
export function latencyOf(settings: WorldSettings, d: Decided): number {
  const latency = settings.runtimeSpec?.latency;
  if (!latency) return 0;
  if (latency.minMs === latency.maxMs) return latency.minMs;
  return latency.minMs + Math.floor(((d.latency ?? 0) / TWO_32) * (latency.maxMs - latency.minMs + 1));
}
