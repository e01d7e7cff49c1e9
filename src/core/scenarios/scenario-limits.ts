import type { LimitsSpec } from './scenario-spec.js';
import { DAY_MS, MINUTE_MS, parseWindows, windowsProblem, withWindow } from '../state/windows.js';
import type { Limits } from '../types.js';

/** The limits a plan or key entry gives: its own windows, or `base` with the minute and day it names; a string says what is wrong. */
export function specLimits(entry: LimitsSpec | undefined, base: Limits): Limits | string {
  if (entry?.limits === undefined) return withWindow(withWindow(base, MINUTE_MS, entry?.perMinute), DAY_MS, entry?.perDay);
  if (entry.perMinute !== undefined || entry.perDay !== undefined)
    return 'limits lists every window; give the minute and the day there, not also as perMinute or perDay';
  return windowsProblem(entry.limits) ?? parseWindows(entry.limits);
}

/** A usage line's counts for a key: every window of it, as a request would make them; minute and day take the line's. */
export function usageCounts(limits: Limits, minute: number | 'full' | undefined, day: number | 'full' | undefined): { lengthMs: number; count: number }[] {
  const given: Readonly<Record<number, number | 'full' | undefined>> = { [MINUTE_MS]: minute, [DAY_MS]: day };
  return limits.map((w) => {
    const used = given[w.lengthMs];
    return { lengthMs: w.lengthMs, count: used === 'full' ? w.max : (used ?? 0) };
  });
}
