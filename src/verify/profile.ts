// `verify --profile FILE`: what verify measured of a deployment, as the document the mock reads
// back (`--profile`, `startMock({ profile })`, a scenario's `profile:`): each operation's latency
// percentiles, the windows the deployment announced for the key, the form of its Retry-After and
// the error codes it answered with.
import type { Profile } from '../core/scenarios/profile.js';
import { WINDOW_UNITS } from '../core/state/windows.js';
import { writeFileAtomically } from '../files/atomic-file.js';
import { UserError } from '../core/errors.js';
import type { Logged } from './client.js';

/** The value at percentile `p` (0..100) by the nearest-rank method, to a tenth of a millisecond. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return Math.round((sorted[rank - 1] ?? 0) * 10) / 10;
}

/** Units shortest first, with their lengths in seconds. */
const UNITS = Object.entries(WINDOW_UNITS)
  .map(([unit, ms]) => ({ unit, seconds: ms / 1000 }))
  .sort((a, b) => a.seconds - b.seconds);

interface Announced {
  limit: number;
  /** Seconds from the answer's Date to X-RateLimit-Reset. */
  left: number;
  reset: number;
}

/** The window an answer announced: X-RateLimit-Limit, and X-RateLimit-Reset against its Date. */
function announcedBy(logged: Logged): Announced | undefined {
  const headers = logged.exchange.response?.headers;
  const limit = headers?.['x-ratelimit-limit']?.trim() ?? '';
  const reset = headers?.['x-ratelimit-reset']?.trim() ?? '';
  if (!/^\d+$/.test(limit) || !/^\d+$/.test(reset) || Number(limit) < 1) return undefined;
  return { limit: Number(limit), reset: Number(reset), left: Number(reset) - Math.floor(logged.at / 1000) };
}

/**
 * The windows the deployment announced for the key, as `N/unit`. Each answer names one window (the
 * one with the fewest requests left), its count and its reset; a count's unit is the shortest one
 * whose every reset lies within its length of the answer's Date and on its boundary (windows
 * aligned to the clock, as the mock's are), else the shortest whose length covers them.
 */
export function announcedLimits(log: readonly Logged[]): string[] {
  const byLimit = new Map<number, Announced[]>();
  for (const logged of log) {
    if (logged.request.auth !== 'key') continue;
    const announced = announcedBy(logged);
    if (announced) byLimit.set(announced.limit, [...(byLimit.get(announced.limit) ?? []), announced]);
  }
  const windows: { text: string; seconds: number }[] = [];
  for (const [limit, seen] of byLimit) {
    const covers = (seconds: number): boolean => seen.every((a) => a.left >= 0 && a.left <= seconds);
    const unit = UNITS.find((u) => covers(u.seconds) && seen.every((a) => a.reset % u.seconds === 0)) ?? UNITS.find((u) => covers(u.seconds));
    if (unit && !windows.some((w) => w.seconds === unit.seconds)) windows.push({ text: `${limit}/${unit.unit}`, seconds: unit.seconds });
  }
  return windows.sort((a, b) => a.seconds - b.seconds).map((w) => w.text);
}

/** `http-date` when a 429's Retry-After was an HTTP-date, else `seconds` (also when none came). */
function retryAfterForm(log: readonly Logged[]): 'seconds' | 'http-date' {
  for (const logged of log) {
    const value = logged.exchange.response?.headers['retry-after']?.trim();
    if (value === undefined || /^\d+$/.test(value)) continue;
    if (Number.isFinite(Date.parse(value))) return 'http-date';
  }
  return 'seconds';
}

/** The base URL with no user, password, query or fragment: nothing secret goes into a profile. */
export function publicBase(base: string): string {
  try {
    const url = new URL(base);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.href.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

/** The profile of what verify sent and got; `scrub` hides the key in anything the deployment echoed. */
export function buildProfile(base: string, log: readonly Logged[], scrub: (text: string) => string): Profile {
  const times = new Map<string, number[]>();
  for (const logged of log) {
    if (!logged.exchange.response) continue;
    times.set(logged.request.operation, [...(times.get(logged.request.operation) ?? []), logged.ms]);
  }
  const operations: Profile['operations'] = {};
  for (const [operation, ms] of [...times].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...ms].sort((a, b) => a - b);
    operations[operation] = { latencyMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) } };
  }
  const codes = new Set<string>();
  for (const logged of log) if (logged.seen.code !== undefined) codes.add(scrub(logged.seen.code));
  const first = log[0];
  return {
    format: 'petstore-mock/profile',
    version: 1,
    base: publicBase(base),
    measuredAt: new Date(first?.at ?? Date.now()).toISOString(),
    operations,
    limits: announcedLimits(log),
    retryAfterForm: retryAfterForm(log),
    errorCodes: [...codes].sort(),
  };
}

/** Writes the profile to `file` whole or not at all (a temporary file renamed). */
export function writeProfile(file: string, profile: Profile): void {
  try {
    writeFileAtomically(file, `${JSON.stringify(profile, null, 2)}\n`);
  } catch (error) {
    throw new UserError(`could not write the profile to ${file} (${(error as Error).message}); check the path given to --profile.`);
  }
}
