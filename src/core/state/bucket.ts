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
  /**
   * The windows the bucket counts in, three numbers each from `3 * slot`: its length, its number
   * (start / length), its count: one flat array of small whole numbers, read with no lookup.
   */
  w: number[];
  /** How many windows `w` holds. */
  n: number;
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

/**
 * Where the window of `lengthMs` starts in `bucket.w` (3 × its slot), made (rolled to now, empty)
 * when missing; `hint` is the slot it usually has.
 */
export function slotOf(bucket: Bucket, lengthMs: number, hint: number, now: number): number {
  const w = bucket.w;
  if (hint < bucket.n && w[3 * hint] === lengthMs) return 3 * hint;
  for (let j = 0; j < bucket.n; j++) if (w[3 * j] === lengthMs) return 3 * j;
  const at = 3 * bucket.n;
  while (w.length < at + 3) w.push(0);
  w[at] = lengthMs;
  w[at + 1] = Math.floor(now / lengthMs);
  w[at + 2] = 0;
  bucket.n++;
  return at;
}

/** Moves the bucket's windows to now. */
export function roll(bucket: Bucket, now: number): void {
  const w = bucket.w;
  for (let at = 0; at < 3 * bucket.n; at += 3) {
    const window = Math.floor(now / (w[at] as number));
    if (w[at + 1] !== window) {
      w[at + 1] = window;
      w[at + 2] = 0;
    }
  }
}

/** The length of the full window that resets last. */
export function refusingLength(bucket: Bucket, limits: Limits, now: number): number {
  let length = 0;
  let latest = -Infinity;
  for (let i = 0; i < limits.length; i++) {
    const w = limits[i] as RateWindow;
    const j = slotOf(bucket, w.lengthMs, i, now);
    const reset = ((bucket.w[j + 1] as number) + 1) * w.lengthMs;
    if ((bucket.w[j + 2] as number) >= w.max && reset >= latest) {
      latest = reset;
      length = w.lengthMs;
    }
  }
  return length;
}

/** The report of the window with the fewest requests left (on a tie, the later reset), with `Retry-After` when `refused`. */
export function report(bucket: Bucket, limits: Limits, refused: boolean, now: number): RateReport {
  let limit = 0;
  let left = Infinity;
  let resetMs = -Infinity;
  for (let i = 0; i < limits.length; i++) {
    const w = limits[i] as RateWindow;
    const j = slotOf(bucket, w.lengthMs, i, now);
    const wLeft = Math.max(0, w.max - (bucket.w[j + 2] as number));
    const wReset = ((bucket.w[j + 1] as number) + 1) * w.lengthMs;
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
  const base = report(bucket, limits, false, now);
  return { limit: base.limit, remaining: 0, reset: Math.ceil(bucket.bannedUntil / 1000), retryAfter: secondsUntil(bucket.bannedUntil, now) };
}

/** Whole seconds from `now` to `instantMs`, at least 1, as `Retry-After` needs. */
export function secondsUntil(instantMs: number, now: number): number {
  return Math.max(1, Math.ceil((instantMs - now) / 1000));
}
