import { MAX_INSTANT_MS } from './clock.js';
import type { Limits, RateWindow } from '../types.js';

// A limiter bucket and the reading of its windows: the windows a request is reported against.

/** The three `X-RateLimit-*` values, plus `Retry-After` when the request was refused. */
export interface RateReport {
  limit: number;
  remaining: number;
  /** Unix time in whole seconds when the reported window (or ban) ends. */
  reset: number;
  retryAfter?: number;
}

export interface Bucket {
  /** The windows the bucket counts in, one slot each: its length, its number (start / length), its count. */
  lengths: number[];
  index: number[];
  count: number[];
  /** When the running wait began: the instant of its first 429. */
  waitFrom: number;
  /** When the running wait ends: the reset its 429s announced (their `Retry-After` points there). */
  waitUntil: number;
  /** Refusals of the running wait that count toward a ban. */
  counted: number;
  /** Refusals of the running wait forgiven as in flight. */
  forgiven: number;
  bannedUntil: number;
}

export /** The slot of a window of `lengthMs` in the bucket, made (rolled to now, empty) when missing. `hint` is where it usually is. */
function slotOf(bucket: Bucket, lengthMs: number, hint: number, now: number): number {
  if (bucket.lengths[hint] === lengthMs) return hint;
  const at = bucket.lengths.indexOf(lengthMs);
  if (at >= 0) return at;
  bucket.lengths.push(lengthMs);
  bucket.index.push(Math.floor(now / lengthMs));
  bucket.count.push(0);
  return bucket.lengths.length - 1;
}

export /** The length of the full window that resets last. */
function refusingLength(bucket: Bucket, limits: Limits, now: number): number {
  let length = 0;
  let latest = -Infinity;
  for (let i = 0; i < limits.length; i++) {
    const w = limits[i] as RateWindow;
    const j = slotOf(bucket, w.lengthMs, i, now);
    const reset = ((bucket.index[j] as number) + 1) * w.lengthMs;
    if ((bucket.count[j] as number) >= w.max && reset >= latest) {
      latest = reset;
      length = w.lengthMs;
    }
  }
  return length;
}

export function report(bucket: Bucket, limits: Limits, refused: boolean, now = 0): RateReport {
  let limit = 0;
  let left = Infinity;
  let resetMs = -Infinity;
  for (let i = 0; i < limits.length; i++) {
    const w = limits[i] as RateWindow;
    const j = slotOf(bucket, w.lengthMs, i, now);
    const wLeft = Math.max(0, w.max - (bucket.count[j] as number));
    const wReset = ((bucket.index[j] as number) + 1) * w.lengthMs;
    if (wLeft < left || (wLeft === left && wReset >= resetMs)) {
      limit = w.max;
      left = wLeft;
      resetMs = wReset;
    }
  }
  // The windows of the last instant a clock holds would end past it; they end with it instead.
  resetMs = Math.min(MAX_INSTANT_MS, resetMs);
  // Whole seconds, as the header needs: a window of a length no unit names may end within one.
  const result: RateReport = { limit, remaining: left, reset: Math.ceil(resetMs / 1000) };
  if (refused) result.retryAfter = secondsUntil(resetMs, now);
  return result;
}

export function banReport(bucket: Bucket, limits: Limits, now: number): RateReport {
  const base = report(bucket, limits, false);
  return { limit: base.limit, remaining: 0, reset: Math.ceil(bucket.bannedUntil / 1000), retryAfter: secondsUntil(bucket.bannedUntil, now) };
}

/** Whole seconds from `now` to `instantMs`, at least 1, as `Retry-After` needs. */
export function secondsUntil(instantMs: number, now: number): number {
  return Math.max(1, Math.ceil((instantMs - now) / 1000));
}
