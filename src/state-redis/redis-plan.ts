// What a request asks of the Redis home, in the named fields the API script reads, and what the
// script answered, in the core's terms. The rules that need no atomicity (which step matches, the
// chaos's answer for a draw, the latency for a draw, the answer) are the core's own functions.
import { named } from '../core/errors.js';
import { chaosAnswer, forceAnswer, latencyOfDraw, matches, stepName, type CompiledAnswer } from '../core/scenarios/scenario-runtime.js';
import { BAN_IN_FLIGHT, NOT_COUNTED, type BanCount, type RateDecision, type RateReport } from '../core/state/limiter.js';
import { PetStore } from '../core/state/store.js';
import type { StateAsk } from '../core/state/state-port.js';
import type { ForcedAnswer, SessionSettings } from '../core/state/session-state.js';
import type { CoreRequest, Limits } from '../core/types.js';
import { REDIS_OPERATIONS } from './operations/index.js';
import type { DecideInput } from './api-input.js';
import type { Local, ScriptData } from './operations/redis-operation.js';

const TWO_32 = 4294967296;

/** The limiter's part of a decision (large numbers as strings: Lua's JSON keeps 14 digits). */
export interface PortRateDecision {
  outcome: 'allowed' | 'limited' | 'banned' | 'peeked';
  window?: string;
  report: { limit: string | number; remaining: string | number; reset: string; retryAfter?: number };
  bannedUntil?: string;
  justBanned?: boolean;
  ban?: { counted: boolean; count: number; after: number; why: string };
}

/** What the script decided for one request, the operation's answer (`ScriptData`) among it. */
export interface Decided extends ScriptData {
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
  /** The operation's removal date has passed. */
  removed?: boolean;
  /** For a declared operation: how many calls it had answered before this one. */
  dcall?: number;
}

/** What settings give every request, computed once per settings. */
interface Prepared {
  /** The base animals alone, to look one up by id. */
  baseStore: PetStore;
  /** Each step's times; a step that answers forever never moves on: -1. */
  times: number[];
}

const prepared = new WeakMap<SessionSettings, Prepared>();

function preparedOf(settings: SessionSettings): Prepared {
  let p = prepared.get(settings);
  if (!p) {
    const spec = settings.runtimeSpec;
    p = { baseStore: new PetStore(settings.base), times: spec ? spec.steps.map((s) => (s.times === Infinity ? -1 : s.times)) : [] };
    prepared.set(settings, p);
  }
  return p;
}

const inputs = new WeakMap<Limits, number[]>();

/** Limits as the Lua limiter takes them: `[60000, 60, 86400000, 1000]`, made once for each key's limits. */
export function limitsInput(limits: Limits): number[] {
  let flat = inputs.get(limits);
  if (!flat) {
    flat = limits.flatMap((w) => [w.lengthMs, w.max]);
    inputs.set(limits, flat);
  }
  return flat;
}

/** The one-letter kind of an answer the script acts on: normal, forced, or a forced 429 (which refunds). */
function answerCode(answer: CompiledAnswer): string {
  if (answer.kind === 'normal') return 'n';
  return answer.kind === 'error' && answer.status === 429 ? 'r' : 'f';
}

/** The script's input for a request's ask under the settings the session runs. */
export function inputOf(ask: StateAsk, s: SessionSettings, req: CoreRequest): { input: DecideInput; local: Local } {
  const local: Local = {};
  const lim = limitsInput(ask.limits);
  if (ask.mode === 'peek') return { input: { mode: ask.mode, bucket: ask.bucket, lim }, local };
  const p = preparedOf(s);
  const latency = s.runtimeSpec?.latency;
  // Written out rather than spread from a base object: V8 built a literal that spreads another and
  // adds fields property by property, some 8 µs of every request.
  const input: DecideInput = {
    mode: ask.mode,
    bucket: ask.bucket,
    lim,
    enforce: ask.enforce,
    removal: ask.removal === true,
    removalAt: s.deprecation.removalAt,
    rule: { after: s.ban.after, ms: s.ban.durationMs, inFlight: s.ban.inFlight ?? BAN_IN_FLIGHT },
    steps: '',
    times: p.times,
    rep: s.runtimeSpec?.repeat === true,
    chaos: [],
    lat: latency !== undefined && latency.minMs !== latency.maxMs,
    op: '',
  };
  if (ask.declared !== undefined) {
    // No step or chaos takes a declared operation: it answers from its own list.
    Object.assign(input, { op: 'decl', dop: ask.declared });
    return { input, local };
  }
  const operation = ask.operation;
  if (operation === undefined) return { input, local };
  // An operation with nothing to read or write still takes its step or chaos draw.
  input.op = 'none';
  if (ask.input !== undefined) {
    const fields = REDIS_OPERATIONS[operation].fields(ask.input, s, p.baseStore, local);
    if (fields !== undefined) Object.assign(input, fields);
  }
  const spec = s.runtimeSpec;
  if (spec) {
    input.steps = spec.steps.map((step) => (matches(step.match, operation, req, ask.key) ? answerCode(step.answer) : '-')).join('');
    if (spec.chaos && matches(spec.chaos.match, operation, req, ask.key)) {
      input.chaos = spec.chaos.answers.map((a) => ({ p: a.probability, c: answerCode(a.answer) }));
    }
  }
  return { input, local };
}

function banWhy(why: string, inFlight: number): string | undefined {
  if (why === 'banned') return NOT_COUNTED.banned;
  if (why === 'off') return NOT_COUNTED.off;
  if (why === 'inflight') return NOT_COUNTED.inFlight(inFlight);
  return undefined;
}

/** The limiter decision the script took, as `RateLimiter.take` gives it. */
export function rateDecisionOf(d: PortRateDecision, inFlight = BAN_IN_FLIGHT): RateDecision {
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
      : { outcome: 'limited', window: d.window ?? 'minute', report };
  if (ban) decision.ban = ban;
  return decision;
}

/** The answer a scenario forced, from the step or chaos draw the script took. */
export function forcedOf(settings: SessionSettings, d: Decided): ForcedAnswer | undefined {
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
  if (d.chaos !== undefined) return chaosAnswer(spec, d.chaos / TWO_32);
  return undefined;
}

/** The scenario's latency for this answer, from the script's draw. */
export function latencyOf(settings: SessionSettings, d: Decided, operation?: string): number {
  const latency = settings.runtimeSpec?.latency;
  if (!latency || latency.minMs === latency.maxMs) return latency?.minMs ?? 0;
  return latencyOfDraw(latency, (d.latency ?? 0) / TWO_32, operation);
}
