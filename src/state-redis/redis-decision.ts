// What the API script answers, in named fields, and what it means in the terms of the in-memory
// rules: the limiter's decision, the scenario's forced answer, the latency drawn.
import { named } from '../core/errors.js';
import { forceAnswer, stepName } from '../core/scenarios/scenario-runtime.js';
import { BAN_IN_FLIGHT, NOT_COUNTED, type BanCount, type RateDecision, type RateReport } from '../core/state/limiter.js';
import type { ForcedAnswer } from '../core/state/world.js';
import type { SettingsEntry } from './settings-registry.js';

const TWO_32 = 4294967296;

/** The limiter's part of the script's answer (large numbers as strings: Lua's JSON keeps 14 digits). */
export interface ScriptDecision {
  outcome: 'allowed' | 'limited' | 'banned' | 'peeked';
  window?: 'minute' | 'day';
  report: { limit: string | number; remaining: string | number; reset: string; retryAfter?: number };
  bannedUntil?: string;
  justBanned?: boolean;
  ban?: { counted: boolean; count: number; after: number; why: string };
}

/** The API script's answer. */
export interface Decided {
  st: 'ok' | 'stale' | 'unregistered';
  set?: string;
  now: string;
  real: string;
  details: string;
  seq: number;
  ep: string;
  evicted: string;
  decision: ScriptDecision;
  step?: number;
  nth?: number;
  chaos?: number;
  latency?: number;
  /** What the operation read or wrote: created animals, one animal, or the new id. */
  data?: string | string[] | Record<string, never> | false;
  /** Why a create found no room: no id left, or the session's bounds. */
  full?: 'id' | 'room';
}

/** Why a refusal did not count, in the words the memory home uses. */
function banWhy(why: string, inFlight: number): string | undefined {
  if (why === 'banned') return NOT_COUNTED.banned;
  if (why === 'off') return NOT_COUNTED.off;
  if (why === 'inflight') return NOT_COUNTED.inFlight(inFlight);
  return undefined;
}

/** The limiter decision the script took, as `RateLimiter.take` gives it. */
export function decisionOf(d: ScriptDecision, inFlight = BAN_IN_FLIGHT): RateDecision {
  const report: RateReport = { limit: Number(d.report.limit), remaining: Number(d.report.remaining), reset: Number(d.report.reset) };
  if (d.report.retryAfter !== undefined) report.retryAfter = Number(d.report.retryAfter);
  let ban: BanCount | undefined;
  if (d.ban) {
    ban = { counted: d.ban.counted, count: d.ban.count, after: d.ban.after };
    const why = banWhy(d.ban.why, inFlight);
    if (why !== undefined) ban.why = why;
  }
  switch (d.outcome) {
    case 'allowed':
    case 'peeked':
      return { outcome: 'allowed', report };
    case 'banned': {
      const decision: RateDecision = { outcome: 'banned', report, bannedUntil: Number(d.bannedUntil), justBanned: d.justBanned === true };
      if (ban) decision.ban = ban;
      return decision;
    }
    default: {
      const decision: RateDecision = { outcome: 'limited', window: d.window === 'day' ? 'day' : 'minute', report };
      if (ban) decision.ban = ban;
      return decision;
    }
  }
}

/** The answer a scenario forced, from the step or chaos draw the script took. */
export function forcedOf(entry: SettingsEntry, d: Decided): ForcedAnswer | undefined {
  const spec = entry.settings.runtimeSpec;
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

/** The scenario's latency for this answer, from the script's draw. */
export function latencyOf(entry: SettingsEntry, d: Decided): number {
  const latency = entry.settings.runtimeSpec?.latency;
  if (!latency) return 0;
  if (latency.minMs === latency.maxMs) return latency.minMs;
  return latency.minMs + Math.floor(((d.latency ?? 0) / TWO_32) * (latency.maxMs - latency.minMs + 1));
}
