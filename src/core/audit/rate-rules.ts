// The audit rules about 429s: early-retry, no-backoff and request-while-banned. One pass over a
// key's entries, oldest first, with a few numbers of state per key.
import type { JournalEntry } from '../state/journal.js';
import { answeredMs, clockMs, finding, inFlight, keyText, plural, retryAfterOf, secondsText, seqList, type AuditFinding } from './findings.js';

/**
 * Slack for early-retry: instants are whole milliseconds, and a client's timer may fire a
 * millisecond or two before the wait it was given, measured on another clock.
 */
export const EARLY_TOLERANCE_MS = 10;
/** A run of this many 429s in a row (two waits between them) is judged for backoff. */
export const BACKOFF_RUN = 3;
/** Waits grew when the last is longer than the first by this factor and by at least `BACKOFF_MIN_GROWTH_MS`. */
export const BACKOFF_FACTOR = 1.25;
export const BACKOFF_MIN_GROWTH_MS = 100;

/** A wait announced by a 429: until when, and the requests that did not keep it. */
interface Wait {
  first: JournalEntry;
  /** When the first 429's answer left the mock (real time). */
  answered: number;
  until: number;
  early: number[];
  firstGapMs: number;
}

/** A ban in force: the refusal that told the client, and the requests that came anyway. */
interface Ban {
  first: JournalEntry;
  answered: number;
  until: number;
  later: number[];
}

/** Consecutive 429 answers to one key. */
interface Run {
  entries: JournalEntry[];
  times: number[];
  /** When the last 429 of the run left the mock (real time). */
  answered: number;
}

interface Track {
  key: string;
  wait?: Wait;
  ban?: Ban;
  run: Run;
}

function closeWait(track: Track, out: AuditFinding[]): void {
  const wait = track.wait;
  track.wait = undefined;
  if (!wait || wait.early.length === 0) return;
  const n = wait.early.length;
  const retry = retryAfterOf(wait.first) ?? 0;
  out.push(
    finding(
      'early-retry',
      track.key,
      [wait.first.seq, ...wait.early],
      `${plural(n, 'request')} with ${keyText(track.key)} (${seqList(wait.early)}) came before the Retry-After of ${retry} s of the 429 at #${wait.first.seq} had passed on the session clock, the first ${wait.firstGapMs === 0 ? 'at the same instant' : `${secondsText(wait.firstGapMs)} after it`}. The specification asks clients to wait the time given in Retry-After before retrying; requests sent while limited can get the key banned.`,
    ),
  );
}

function closeBan(track: Track, out: AuditFinding[]): void {
  const ban = track.ban;
  track.ban = undefined;
  if (!ban || ban.later.length === 0) return;
  out.push(
    finding(
      'request-while-banned',
      track.key,
      [ban.first.seq, ...ban.later],
      `${plural(ban.later.length, 'request')} with ${keyText(track.key)} (${seqList(ban.later)}) came while the key was banned, after the 429 key_banned at #${ban.first.seq} said so${ban.first.retryAfter !== undefined ? ` and to retry after ${ban.first.retryAfter} s` : ''}. A banned client must stop until the ban's Retry-After has passed; the specification bans keys that keep sending after a 429.`,
    ),
  );
}

function closeRun(track: Track, out: AuditFinding[]): void {
  const { entries, times } = track.run;
  track.run = { entries: [], times: [], answered: 0 };
  if (entries.length < BACKOFF_RUN) return;
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  const first = gaps[0]!;
  const last = gaps[gaps.length - 1]!;
  if (last > first * BACKOFF_FACTOR && last - first >= BACKOFF_MIN_GROWTH_MS) return;
  const shown = gaps.length > 6 ? [...gaps.slice(0, 5).map(secondsText), '…', secondsText(last)] : gaps.map(secondsText);
  out.push(
    finding(
      'no-backoff',
      track.key,
      entries.map((e) => e.seq),
      `${entries.length} answers in a row to ${keyText(track.key)} were 429 (${seqList(entries.map((e) => e.seq))}) and the client's waits between them did not grow (${shown.join(', ')}). The specification asks clients to use exponential backoff: each wait after a 429 longer than the one before.`,
    ),
  );
}

/** One entry of a key, in order. */
function step(track: Track, entry: JournalEntry, out: AuditFinding[]): void {
  const t = clockMs(entry);
  const banned = entry.code === 'key_banned';
  const retry = retryAfterOf(entry);

  // Without a Retry-After the ban's end is unknown; an answer that is not key_banned shows it is over.
  if (track.ban && (t >= track.ban.until || (!banned && track.ban.until === Infinity))) closeBan(track, out);
  if (track.wait && t >= track.wait.until - EARLY_TOLERANCE_MS) closeWait(track, out);

  const duringBan = track.ban !== undefined;
  if (duringBan) {
    if (!inFlight(entry, track.ban!.answered)) track.ban!.later.push(entry.seq);
  } else if (track.wait && !inFlight(entry, track.wait.answered)) {
    if (track.wait.early.length === 0) track.wait.firstGapMs = t - clockMs(track.wait.first);
    track.wait.early.push(entry.seq);
  }

  if (banned && !duringBan) {
    // The ban replaces the wait: what comes during it is request-while-banned, not early-retry.
    closeWait(track, out);
    track.ban = { first: entry, answered: answeredMs(entry), until: retry === undefined ? Infinity : t + retry * 1000, later: [] };
  } else if (entry.status === 429 && !banned && retry !== undefined) {
    const until = t + retry * 1000;
    if (track.wait) track.wait.until = Math.max(track.wait.until, until);
    else track.wait = { first: entry, answered: answeredMs(entry), until, early: [], firstGapMs: 0 };
  }

  if (entry.status !== 429) closeRun(track, out);
  else {
    // A request in flight when the previous 429 was answered is not a wait the client chose.
    if (track.run.entries.length === 0 || !inFlight(entry, track.run.answered)) {
      track.run.entries.push(entry);
      track.run.times.push(t);
      track.run.answered = answeredMs(entry);
    }
  }
}

/** early-retry, no-backoff and request-while-banned over the entries with a key, oldest first. */
export function rateFindings(entries: readonly JournalEntry[]): AuditFinding[] {
  const tracks = new Map<string, Track>();
  const out: AuditFinding[] = [];
  for (const entry of entries) {
    if (entry.key === undefined) continue;
    let track = tracks.get(entry.key);
    if (!track) {
      track = { key: entry.key, run: { entries: [], times: [], answered: 0 } };
      tracks.set(entry.key, track);
    }
    step(track, entry, out);
  }
  for (const track of tracks.values()) {
    closeWait(track, out);
    closeBan(track, out);
    closeRun(track, out);
  }
  return out;
}
