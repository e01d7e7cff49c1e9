// What the admin page's chart of a key's limits draws, computed from the journal alone: each
// request of the key on the session clock, what kind of answer it got, and the quota left in its
// window after it. Pure, so that it is tested without a browser and bundled into the page.
import type { JournalEntry } from './journal.js';

/** What a request of the key got: served, refused by the limit, refused and counted toward a ban, refused while banned, or another error. */
export type TimelineKind = 'ok' | 'error' | 'refused' | 'counted' | 'banned';

export interface TimelinePoint {
  seq: number;
  /** The session clock's time of the request, epoch milliseconds. */
  at: number;
  status: number;
  kind: TimelineKind;
  /** What was left of the minute's quota after the request. */
  minuteLeft: number;
  /** What was left of the UTC day's quota after it, counting the requests the journal still holds. */
  dayLeft: number;
}

/** One minute window that saw requests of the key. */
export interface TimelineWindow {
  /** The window's start on the session clock, epoch milliseconds. */
  start: number;
  used: number;
  left: number;
  refused: number;
  counted: number;
  banned: number;
}

export interface LimitsTimeline {
  points: TimelinePoint[];
  windows: TimelineWindow[];
}

/**
 * Answers given before the limiter counts a request (the check order: route, removal date, auth,
 * then ban and rate limit), and the limiter's own refusals: none of them uses quota.
 */
const NOT_COUNTED = new Set([
  'route_not_found',
  'method_not_allowed',
  'endpoint_removed',
  'uri_too_long',
  'headers_too_large',
  'request_timeout',
  'too_many_connections',
  'invalid_session',
  'missing_api_key',
  'malformed_authorization',
  'invalid_api_key',
  'revoked_api_key',
  'rate_limited',
  'key_banned',
]);

const MINUTE = 60_000;
const DAY = 86_400_000;

function kindOf(e: JournalEntry): TimelineKind {
  if (e.code === 'key_banned') return 'banned';
  if (e.code === 'rate_limited') return (e as { ban?: { counted?: boolean } }).ban?.counted === true ? 'counted' : 'refused';
  return e.status < 400 ? 'ok' : 'error';
}

/** The timeline of the journal entries of one key (already filtered to it), with its plan's limits. */
export function limitsTimeline(entries: readonly JournalEntry[], limits: { perMinute: number; perDay: number }): LimitsTimeline {
  const points: TimelinePoint[] = [];
  const windows: TimelineWindow[] = [];
  const usedIn = new Map<number, number>();
  for (const e of entries) {
    if (e.method === 'OPTIONS') continue;
    const at = Date.parse(e.at);
    const minute = Math.floor(at / MINUTE) * MINUTE;
    const day = Math.floor(at / DAY) * DAY;
    const kind = kindOf(e);
    let window = windows.at(-1);
    if (window?.start !== minute) {
      window = { start: minute, used: 0, left: limits.perMinute, refused: 0, counted: 0, banned: 0 };
      windows.push(window);
    }
    if (!NOT_COUNTED.has(e.code ?? '')) {
      window.used++;
      usedIn.set(day, (usedIn.get(day) ?? 0) + 1);
    }
    window.left = Math.max(0, limits.perMinute - window.used);
    if (kind === 'refused') window.refused++;
    if (kind === 'counted') window.counted++;
    if (kind === 'banned') window.banned++;
    points.push({ seq: e.seq, at, status: e.status, kind, minuteLeft: window.left, dayLeft: Math.max(0, limits.perDay - (usedIn.get(day) ?? 0)) });
  }
  return { points, windows };
}
