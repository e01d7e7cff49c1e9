// A deployment's profile (`verify --profile` writes it; scenarios/profile.schema.json describes it)
// checked and turned into what a session runs: every key's limits, and a seeded latency per
// operation whose percentiles are the profile's.
import type { KeyConfig, Limits } from '../types.js';
import { parseWindows, windowsProblem } from '../state/windows.js';

/** The percentiles a profile gives an operation's latency, in milliseconds. */
export interface LatencyPercentiles {
  p50: number;
  p95: number;
  p99: number;
}

/** A profile document, once checked. */
export interface Profile {
  format: 'petstore-mock/profile';
  version: 1;
  base: string;
  measuredAt: string;
  operations: Record<string, { latencyMs: LatencyPercentiles; requests?: number }>;
  limits: string[];
  retryAfterForm: 'seconds' | 'http-date';
  errorCodes?: string[];
}

/** Points (draw in [0, 1], milliseconds) of a piecewise-linear inverse CDF, draws ascending. */
export type LatencyCurve = readonly (readonly [number, number])[];

/** The latency a profile gives: a curve per operation, and one for any other operation. */
export interface ProfileLatency {
  byOperation: Readonly<Record<string, LatencyCurve>>;
  other: LatencyCurve;
}

/** What a session runs of a profile. */
export interface CompiledProfile {
  /** The document it came from: a snapshot's scenario definition carries it, so a restore answers alike. */
  document: Profile;
  limits: Limits;
  latency: ProfileLatency;
}

/** A profile that is not one: `at` is the JSON pointer of the first wrong field. */
export class ProfileProblem extends Error {
  constructor(
    readonly at: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProfileProblem';
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const TOP = ['format', 'version', 'base', 'measuredAt', 'operations', 'limits', 'retryAfterForm', 'errorCodes'];

/** Checks a value is a profile document (as the JSON Schema says) and returns it typed; throws `ProfileProblem`. */
export function checkProfile(value: unknown): Profile {
  if (!isRecord(value)) throw new ProfileProblem('', 'a profile is a JSON object written by petstore-mock verify --profile');
  for (const name of Object.keys(value)) if (!TOP.includes(name)) throw new ProfileProblem(`/${name}`, `${JSON.stringify(name)} is not a field of a profile`);
  if (value.format !== 'petstore-mock/profile') throw new ProfileProblem('/format', 'format must be "petstore-mock/profile"');
  if (value.version !== 1) throw new ProfileProblem('/version', `this petstore-mock reads profiles of version 1, not ${JSON.stringify(value.version)}`);
  if (typeof value.base !== 'string') throw new ProfileProblem('/base', 'base must be the URL that was measured');
  if (typeof value.measuredAt !== 'string') throw new ProfileProblem('/measuredAt', 'measuredAt must be an ISO-8601 instant');
  if (!isRecord(value.operations)) throw new ProfileProblem('/operations', 'operations must be an object keyed by operationId');
  for (const [id, entry] of Object.entries(value.operations)) {
    const at = `/operations/${id}`;
    if (!isRecord(entry) || !isRecord(entry.latencyMs)) throw new ProfileProblem(`${at}/latencyMs`, 'each operation needs latencyMs {p50, p95, p99}');
    let last = 0;
    for (const p of ['p50', 'p95', 'p99'] as const) {
      const ms = entry.latencyMs[p];
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > 600_000)
        throw new ProfileProblem(`${at}/latencyMs/${p}`, `${p} must be milliseconds from 0 to 600000`);
      if (ms < last) throw new ProfileProblem(`${at}/latencyMs/${p}`, `${p} is below the percentile before it; percentiles only grow`);
      last = ms;
    }
  }
  if (!Array.isArray(value.limits) || value.limits.some((t) => typeof t !== 'string'))
    throw new ProfileProblem('/limits', 'limits must be a list of windows such as "600/m"');
  if (value.limits.length > 0) {
    const problem = windowsProblem(value.limits as string[]);
    if (problem) throw new ProfileProblem('/limits', problem);
  }
  if (value.retryAfterForm !== 'seconds' && value.retryAfterForm !== 'http-date')
    throw new ProfileProblem('/retryAfterForm', 'retryAfterForm must be "seconds" or "http-date"');
  if (value.errorCodes !== undefined && (!Array.isArray(value.errorCodes) || value.errorCodes.some((c) => typeof c !== 'string')))
    throw new ProfileProblem('/errorCodes', 'errorCodes must be a list of strings');
  return value as unknown as Profile;
}

/**
 * The curve through a profile's percentiles: (0, p50/2), (0.5, p50), (0.95, p95), (0.99, p99),
 * and (1, p99 + (p99 - p95)/4), the tail going on at the slope between p95 and p99 (a quarter of
 * it over the last percent). Below the median a profile says nothing; half the median is a floor.
 */
export function curveOf(p: LatencyPercentiles): LatencyCurve {
  return [
    [0, p.p50 / 2],
    [0.5, p.p50],
    [0.95, p.p95],
    [0.99, p.p99],
    [1, p.p99 + (p.p99 - p.p95) / 4],
  ];
}

/** The milliseconds of a curve for a draw in [0, 1), whole. */
export function curveDraw(curve: LatencyCurve, draw: number): number {
  for (let i = 1; i < curve.length; i++) {
    const [u1, ms1] = curve[i] as readonly [number, number];
    if (draw > u1 && i < curve.length - 1) continue;
    const [u0, ms0] = curve[i - 1] as readonly [number, number];
    const share = u1 === u0 ? 0 : (draw - u0) / (u1 - u0);
    return Math.round(ms0 + Math.min(1, Math.max(0, share)) * (ms1 - ms0));
  }
  return 0;
}

/** A checked profile as a session runs it. Operations the profile did not measure take each percentile's largest. */
export function compileProfile(profile: Profile): CompiledProfile {
  const entries = Object.entries(profile.operations);
  const byOperation = Object.fromEntries(entries.map(([id, e]) => [id, curveOf(e.latencyMs)]));
  const most = (p: keyof LatencyPercentiles): number => Math.max(0, ...entries.map(([, e]) => e.latencyMs[p]));
  return {
    document: profile,
    limits: profile.limits.length > 0 ? parseWindows(profile.limits) : [],
    latency: { byOperation, other: curveOf({ p50: most('p50'), p95: most('p95'), p99: most('p99') }) },
  };
}

/** Every key with the profile's limits (a profile that measured none leaves them as they are). */
export function profiledKeys(keys: readonly KeyConfig[], profile: CompiledProfile): KeyConfig[] {
  if (profile.limits.length === 0) return [...keys];
  return keys.map((k) => ({ ...k, limits: profile.limits, custom: true }));
}
