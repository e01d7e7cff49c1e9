import { MAX_INSTANT_MS, clampInstant } from './clock.js';
import type { BanRule, Limits, RateWindow } from '../types.js';
import { windowName } from './windows.js';
import { banReport, refusingLength, report, roll, slotOf, type Bucket, type RateReport } from './bucket.js';

/**
 * How many refusals of one wait are taken for requests already in flight when its first 429 went
 * out: a client cannot obey an answer it has not read yet. Callers that wait `Retry-After` send at
 * most one refusal each per wait (they come back after it), so up to this many such callers
 * sharing a key are never banned; a loop that ignores the 429s passes it within the wait, on a
 * frozen clock as on a running one.
 */
export const BAN_IN_FLIGHT = 8;

/** Why a refusal did not count toward a ban, in words; every home of state says it so. */
export const NOT_COUNTED = {
  banned: 'the key is already banned; refusals during a ban do not lengthen it',
  off: 'bans are off (ban.after is 0)',
  inFlight: (n: number): string => `one of the first ${n} refusals of this wait, taken as sent before its first 429 could be read (in flight)`,
};

/** Whether a refusal counted toward a ban, as the journal tells it. */
export interface BanCount {
  counted: boolean;
  /** Counted refusals so far in the running wait. */
  count: number;
  /** The threshold: the key is banned when `count` exceeds it. */
  after: number;
  /** Why it was not counted, in words. */
  why?: string;
}

export type { RateReport } from './bucket.js';

/** What the limiter decided for one request. */
export type RateDecision =
  | { outcome: 'allowed'; report: RateReport }
  | {
      outcome: 'limited';
      /** The window that refused it (`windowName`: 'minute', 'day', 'second', 'hour'…). */ window: string;
      report: RateReport;
      ban?: BanCount;
    }
  | { outcome: 'banned'; report: RateReport; bannedUntil: number; justBanned: boolean; ban?: BanCount };

/** A bucket as a snapshot keeps it: each window's number (start / length) and count, the wait, the ban (epoch ms). */
export interface BucketState {
  id: string;
  windows: { lengthMs: number; index: number; count: number }[];
  wait?: { from: number; until: number; counted: number; forgiven: number };
  bannedUntil?: number;
}

/** Usage to preload into a bucket, as scenarios do ("the minute's quota is already used"): a count per window. */
export interface PresetUsage {
  counts: readonly { lengthMs: number; count: number }[];
  bannedUntil?: number;
}

const MAX_BUCKETS = 100_000;

/**
 * Fixed-window rate limiting over any number of windows aligned to the clock (a second, minute,
 * hour, UTC day). A request is checked against every window before it counts, so a refused request
 * consumes nothing. The reported window is the one with the fewest requests left; on a tie, the
 * one that resets later, because only then can a client be sure of having quota again.
 */
export class RateLimiter {
  private buckets = new Map<string, Bucket>();

  constructor(private ban: BanRule) {}

  setBanRule(rule: BanRule): void {
    this.ban = rule;
  }

  clear(): void {
    this.buckets.clear();
  }

  /** The bucket of `id` with its windows moved to now; a new one gets a slot for each of `limits`. */
  private bucket(id: string, now: number, limits: Limits): Bucket {
    let bucket = this.buckets.get(id);
    if (!bucket) {
      // Anonymous clients are tracked by address; the map must not grow without bound.
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value as string);
      // No wait and no ban: 0 would be an instant in 1970, in force for a clock before it.
      bucket = { w: [0, 0, 0, 0, 0, 0], n: 0, waitFrom: -Infinity, waitUntil: -Infinity, counted: 0, forgiven: 0, bannedUntil: -Infinity };
      for (let i = 0; i < limits.length; i++) slotOf(bucket, (limits[i] as RateWindow).lengthMs, i, now);
      this.buckets.set(id, bucket);
    } else roll(bucket, now);
    return bucket;
  }

  /** Loads usage into a bucket as of `now`, for scenarios. */
  preset(id: string, now: number, usage: PresetUsage): void {
    const bucket = this.bucket(id, now, NO_LIMITS);
    usage.counts.forEach((c, i) => {
      const at = slotOf(bucket, c.lengthMs, i, now);
      bucket.w[at + 2] = c.count;
    });
    if (usage.bannedUntil !== undefined) bucket.bannedUntil = clampInstant(usage.bannedUntil);
  }

  /** Every bucket as it stands, for a snapshot; nothing is rolled over to the present window. */
  export(): BucketState[] {
    return [...this.buckets].map(([id, b]) => {
      const windows = Array.from({ length: b.n }, (_, j) => ({
        lengthMs: b.w[3 * j] as number,
        index: b.w[3 * j + 1] as number,
        count: b.w[3 * j + 2] as number,
      }));
      const state: BucketState = { id, windows };
      const waiting = Number.isFinite(b.waitFrom) || Number.isFinite(b.waitUntil) || b.counted > 0 || b.forgiven > 0;
      if (waiting) state.wait = { from: b.waitFrom, until: b.waitUntil, counted: b.counted, forgiven: b.forgiven };
      if (Number.isFinite(b.bannedUntil)) state.bannedUntil = b.bannedUntil;
      return state;
    });
  }

  /** Replaces every bucket with those of a snapshot (`export`'s output, checked). */
  restoreBuckets(states: readonly BucketState[]): void {
    this.buckets.clear();
    for (const state of states.slice(-MAX_BUCKETS)) {
      this.buckets.set(state.id, {
        w: state.windows.flatMap((w) => [w.lengthMs, w.index, w.count]),
        n: state.windows.length,
        waitFrom: state.wait?.from ?? -Infinity,
        waitUntil: state.wait?.until ?? -Infinity,
        counted: state.wait?.counted ?? 0,
        forgiven: state.wait?.forgiven ?? 0,
        bannedUntil: state.bannedUntil ?? -Infinity,
      });
    }
  }

  /**
   * Counts one request against the bucket if every window has room. `enforce` is false for
   * answers given before the rate-limit check (404, 401, …): they count when there is room but
   * are never refused or banned here.
   *
   * Bans punish sending while told to wait, not sharing a key: the first 429 starts a wait that
   * runs to the reset it announces; the first `BAN_IN_FLIGHT` refusals of a wait are forgiven as
   * requests already in flight, and each later one counts. More than `ban.after` counted refusals
   * in one wait ban the key; counts start again with the next wait. A client that waits
   * `Retry-After` before retrying arrives after the wait, so it adds at most one refusal to each.
   */
  take(id: string, limits: Limits, now: number, enforce: boolean): RateDecision {
    // No window can end after the last instant a clock holds, so nothing is counted there: a
    // client at the end of time would otherwise wait for a reset that can never come.
    if (now >= MAX_INSTANT_MS) {
      const longest = limits[limits.length - 1]?.max ?? 0;
      return { outcome: 'allowed', report: { limit: longest, remaining: longest, reset: MAX_INSTANT_MS / 1000 } };
    }
    const bucket = this.bucket(id, now, limits);
    if (bucket.bannedUntil > now) {
      return {
        outcome: 'banned',
        report: banReport(bucket, limits, now),
        bannedUntil: bucket.bannedUntil,
        justBanned: false,
        ban: { counted: false, count: 0, after: this.ban.after, why: NOT_COUNTED.banned },
      };
    }
    let fits = true;
    for (let i = 0; i < limits.length; i++) {
      const w = limits[i] as RateWindow;
      if ((bucket.w[slotOf(bucket, w.lengthMs, i, now) + 2] as number) >= w.max) fits = false;
    }
    if (fits) {
      for (let i = 0; i < limits.length; i++) (bucket.w[slotOf(bucket, (limits[i] as RateWindow).lengthMs, i, now) + 2] as number)++;
      return { outcome: 'allowed', report: report(bucket, limits, false, now) };
    }
    // Every full window has none left, the fewest, so the report describes the full one that resets
    // last (the one the journal names), and its Retry-After runs to that reset.
    const limited = report(bucket, limits, enforce, now);
    const window = windowName(refusingLength(bucket, limits, now));
    if (!enforce) return { outcome: 'limited', window, report: limited };
    // A clock set back before the wait began starts a new one rather than counting on a stale start.
    if (now >= bucket.waitUntil || now < bucket.waitFrom) {
      bucket.waitFrom = now;
      bucket.counted = 0;
      bucket.forgiven = 0;
    }
    bucket.waitUntil = Math.max(bucket.waitUntil, limited.reset * 1000);
    const inFlight = this.ban.inFlight ?? BAN_IN_FLIGHT;
    const counted = bucket.forgiven >= inFlight;
    if (counted) bucket.counted++;
    else bucket.forgiven++;
    const ban: BanCount = { counted, count: bucket.counted, after: this.ban.after };
    if (!counted) ban.why = NOT_COUNTED.inFlight(inFlight);
    if (this.ban.after <= 0) {
      ban.counted = false;
      ban.why = NOT_COUNTED.off;
    }
    if (this.ban.after > 0 && bucket.counted > this.ban.after) {
      bucket.bannedUntil = clampInstant(Math.ceil((now + this.ban.durationMs) / 1000) * 1000);
      bucket.counted = 0;
      bucket.forgiven = 0;
      bucket.waitUntil = -Infinity;
      return { outcome: 'banned', report: banReport(bucket, limits, now), bannedUntil: bucket.bannedUntil, justBanned: true, ban };
    }
    return { outcome: 'limited', window, report: limited, ban };
  }

  /**
   * Gives back the request `take` just counted, for an answer that turned out to be a 429 after all
   * (one a scenario forced): a 429 consumes nothing.
   */
  refund(id: string, now: number): void {
    const bucket = this.bucket(id, now, NO_LIMITS);
    for (let at = 2; at < 3 * bucket.n; at += 3) if ((bucket.w[at] as number) > 0) (bucket.w[at] as number)--;
  }

  /** The current report for a bucket without counting anything (used by the admin view). */
  peek(id: string, limits: Limits, now: number): RateReport & { bannedUntil?: number } {
    const bucket = this.bucket(id, now, limits);
    if (bucket.bannedUntil > now) return { ...banReport(bucket, limits, now), bannedUntil: bucket.bannedUntil };
    return report(bucket, limits, false, now);
  }
}

const NO_LIMITS: Limits = [];

/** The `X-RateLimit-*` (and `Retry-After`) headers of a report. */
export function rateHeaders(report: RateReport): Record<string, string> {
  const headers: Record<string, string> = {};
  setRateHeaders(headers, report, true);
  return headers;
}

/**
 * Writes the `X-RateLimit-*` headers of a report into `headers`, and `Retry-After` when
 * `withRetry` is set and the report has one. Writing in place spares the API path an object per answer.
 */
export function setRateHeaders(headers: Record<string, string>, report: RateReport, withRetry: boolean): void {
  headers['X-RateLimit-Limit'] = String(report.limit);
  headers['X-RateLimit-Remaining'] = String(report.remaining);
  headers['X-RateLimit-Reset'] = String(report.reset);
  if (withRetry && report.retryAfter !== undefined) headers['Retry-After'] = String(report.retryAfter);
}

/**
 * Writes the `X-RateLimit-*` headers of an answer given without state (the home could not be
 * asked): every answer carries them, so these report the shortest window's limit (`limits[0]`, the
 * minute's for a plan) with nothing left until `retryAfter` seconds from now, by this host's clock.
 */
export function setNoStateRateHeaders(headers: Record<string, string>, limits: Limits, retryAfter: number): void {
  setRateHeaders(headers, { limit: limits[0]?.max ?? 0, remaining: 0, reset: Math.ceil(Date.now() / 1000) + retryAfter }, false);
}
