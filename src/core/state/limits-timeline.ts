// What the admin page's chart of a key's limits draws, computed from the journal alone: each
// request of the key on the session clock, what kind of answer it got, and the quota left in its
// windows after it. Pure, so that it is tested without a browser and bundled into the page.
import type { JournalEntry } from './journal.js';
import type { Limits } from '../types.js';

/** What a request of the key got: served, refused by the limit, refused and counted toward a ban, refused while banned, or another error. */
export type TimelineKind = 'ok' | 'error' | 'refused' | 'counted' | 'banned';

export interface TimelinePoint {
  seq: number;
  /** The session clock's time of the request, epoch milliseconds. */
  at: number;
  status: number;
  kind: TimelineKind;
  /**
   * What was left of each window's quota after the request, the key's windows in order (shortest
   * first), counting the requests the journal still holds.
   */
  left: number[];
}

/** One window of the key's shortest length that saw requests of the key. */
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
  /** The length of the windows listed: the key's shortest. */
  lengthMs: number;
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

function kindOf(e: JournalEntry): TimelineKind {
  if (e.code === 'key_banned') return 'banned';
  if (e.code === 'rate_limited') return e.ban?.counted === true ? 'counted' : 'refused';
  return e.status < 400 ? 'ok' : 'error';
}

/** The timeline of the journal entries of one key (already filtered to it), with its limits. */
export function limitsTimeline(entries: readonly JournalEntry[], limits: Limits): LimitsTimeline {
  const points: TimelinePoint[] = [];
  const windows: TimelineWindow[] = [];
  const shortest = limits[0] ?? { lengthMs: 60_000, max: 0 };
  // Requests counted in each window of each length, by the window's start.
  const usedIn = limits.map(() => new Map<number, number>());
  for (const e of entries) {
    if (e.method === 'OPTIONS') continue;
    const at = Date.parse(e.at);
    const starts = limits.map((w) => Math.floor(at / w.lengthMs) * w.lengthMs);
    const kind = kindOf(e);
    const first = starts[0] ?? at;
    let window = windows.at(-1);
    if (window?.start !== first) {
      window = { start: first, used: 0, left: shortest.max, refused: 0, counted: 0, banned: 0 };
      windows.push(window);
    }
    const counted = !NOT_COUNTED.has(e.code ?? '');
    if (counted) window.used++;
    const left = limits.map((w, i) => {
      const used = usedIn[i] as Map<number, number>;
      const start = starts[i] as number;
      if (counted) used.set(start, (used.get(start) ?? 0) + 1);
      return Math.max(0, w.max - (used.get(start) ?? 0));
    });
    window.left = Math.max(0, shortest.max - window.used);
    if (kind !== 'ok' && kind !== 'error') window[kind]++;
    points.push({ seq: e.seq, at, status: e.status, kind, left });
  }
  return { points, windows, lengthMs: shortest.lengthMs };
}
