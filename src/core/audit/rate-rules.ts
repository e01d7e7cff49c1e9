// The audit rules about 429s: early-retry, no-backoff and request-while-banned. One pass over a
// key's entries, oldest first, with a few numbers of state per key.
import type { JournalEntry } from '../state/journal.js';
import {
  answeredMs,
  clockMs,
  connectionName,
  finding,
  keyText,
  plural,
  retryAfterOf,
  secondsText,
  seqList,
  unread,
  waitEndOf,
  type AuditFinding,
  type KeyName,
} from './findings.js';

/**
 * Slack for early-retry: instants are whole milliseconds, and a client's timer may fire a
 * millisecond or two before the wait it was given, measured on another clock.
 */
export const EARLY_TOLERANCE_MS = 10;
/** A run of this many 429s in a row (two waits between them) is judged for backoff. */
export const BACKOFF_RUN = 3;
/** A wait grew when it is longer than the one before by this factor. */
export const BACKOFF_FACTOR = 1.25;
/** And the run's last wait must be longer than its first by this factor and at least this much. */
export const BACKOFF_MIN_GROWTH_MS = 100;
/** Steps of a run that may fail to grow (jitter) while the run still counts as backing off. */
export const BACKOFF_JITTERED_STEPS = 1;

/**
 * Answers whose Retry-After is a wait: a 429's, and a 503's (a declared operation's, a scenario's
 * forced one), which RFC 9110 gives the same meaning: come back after this long.
 */
export const WAIT_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** A 429 of a running wait whose end is later than every earlier one's: the one a request broke. */
interface Announced {
  entry: JournalEntry;
  answered: number;
  end: number;
}

/** A wait announced by 429s: the ones still in force, and the requests that did not keep it. */
interface Wait {
  /** 429s in order of answer with ever later ends; the first is the earliest still in force. */
  announced: Announced[];
  early: number[];
  /** The 429s whose waits the early requests broke. */
  broken: JournalEntry[];
  /** The first early request, and how long after the 429 it broke it came (session clock). */
  firstEarly?: { seq: number; by: JournalEntry; gapMs: number };
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
  /** When the last 429 of the run left the mock (real time). */
  answered: number;
}

interface Track {
  key: KeyName;
  wait?: Wait;
  ban?: Ban;
  run: Run;
}

function until(wait: Wait): number {
  return wait.announced[wait.announced.length - 1]!.end;
}

function brokenText(wait: Wait): string {
  const shown = wait.broken.map((e) => `${retryAfterOf(e) ?? 0} s of the ${e.status} at #${e.seq}`);
  if (shown.length === 1) return `the Retry-After of ${shown[0]}`;
  return `the Retry-After of ${shown.slice(0, -1).join(', ')} and of ${shown[shown.length - 1]}`;
}

function closeWait(track: Track, out: AuditFinding[]): void {
  const wait = track.wait;
  track.wait = undefined;
  if (!wait || wait.early.length === 0 || wait.firstEarly === undefined) return;
  const n = wait.early.length;
  const { seq, by, gapMs } = wait.firstEarly;
  const requests = [...new Set([...wait.broken.map((e) => e.seq), ...wait.early])].sort((a, b) => a - b);
  const when = gapMs === 0 ? 'at the same instant' : `${secondsText(gapMs)} after it`;
  const first =
    wait.broken.length === 1
      ? `the first ${when}`
      : `the first, #${seq}, ${gapMs === 0 ? 'at the same instant as' : `${secondsText(gapMs)} after`} the ${by.status} at #${by.seq}`;
  out.push(
    finding(
      'early-retry',
      track.key,
      requests,
      `${plural(n, 'request')} with ${keyText(track.key)} (${seqList(wait.early)}) came before ${brokenText(wait)} had passed on the session clock, ${first}. The specification asks clients to wait the time given in Retry-After before retrying; requests sent while limited can get the key banned.`,
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

/**
 * Whether a run's waits back off: the last is longer than the first (by the factor and by
 * `BACKOFF_MIN_GROWTH_MS`), and at most `BACKOFF_JITTERED_STEPS` waits are not longer than the
 * one before. The whole run counts: a flat run that ends with one longer wait is no backoff.
 */
export function backsOff(gaps: readonly number[]): boolean {
  const first = gaps[0]!;
  const last = gaps[gaps.length - 1]!;
  if (!(last > first * BACKOFF_FACTOR && last - first >= BACKOFF_MIN_GROWTH_MS)) return false;
  let stalled = 0;
  for (let i = 1; i < gaps.length; i++) if (!(gaps[i]! > gaps[i - 1]! * BACKOFF_FACTOR)) stalled++;
  return stalled <= BACKOFF_JITTERED_STEPS;
}

function closeRun(track: Track, out: AuditFinding[]): void {
  const { entries } = track.run;
  track.run = { entries: [], answered: 0 };
  if (entries.length < BACKOFF_RUN) return;
  const gaps = entries.slice(1).map((e, i) => clockMs(e) - clockMs(entries[i]!));
  if (backsOff(gaps)) return;
  const shown = gaps.length > 8 ? [...gaps.slice(0, 6).map(secondsText), '…', secondsText(gaps[gaps.length - 1]!)] : gaps.map(secondsText);
  out.push(
    finding(
      'no-backoff',
      track.key,
      entries.map((e) => e.seq),
      `${entries.length} answers in a row to ${keyText(track.key)} were 429 (${seqList(entries.map((e) => e.seq))}) and the client's waits between them did not grow (${shown.join(', ')}). The specification asks clients to use exponential backoff: each wait after a 429 longer than the one before (jitter may blur one step, not the trend).`,
    ),
  );
}

/** Notes a request that came during a wait: early unless it was in flight when the wait's first 429 left. */
function judgeWaiting(wait: Wait, entry: JournalEntry, t: number, seen: ReadonlySet<string>): void {
  // 429s whose wait the request kept are no longer in force.
  while (wait.announced.length > 1 && t >= wait.announced[0]!.end - EARLY_TOLERANCE_MS) wait.announced.shift();
  const broken = wait.announced[0]!;
  if (unread(entry, broken.answered, seen)) return;
  wait.early.push(entry.seq);
  if (!wait.broken.includes(broken.entry)) wait.broken.push(broken.entry);
  wait.firstEarly ??= { seq: entry.seq, by: broken.entry, gapMs: t - clockMs(broken.entry) };
}

/** A 429 that announces a wait: it starts one, or extends the running one when it ends later. */
function announce(track: Track, entry: JournalEntry, end: number): void {
  const announced = { entry, answered: answeredMs(entry), end };
  const wait = track.wait;
  if (!wait) {
    track.wait = { announced: [announced], early: [], broken: [] };
    return;
  }
  if (end > until(wait)) wait.announced.push(announced);
}

/** One entry of a key, in order; `seen` holds the connections of the entries before it. */
function step(track: Track, entry: JournalEntry, out: AuditFinding[], seen: ReadonlySet<string>): void {
  const t = clockMs(entry);
  const banned = entry.code === 'key_banned';

  // Without a Retry-After the ban's end is unknown; an answer that is not key_banned shows it is over.
  if (track.ban && (t >= track.ban.until || (!banned && track.ban.until === Infinity))) closeBan(track, out);
  if (track.wait && t >= until(track.wait) - EARLY_TOLERANCE_MS) closeWait(track, out);

  const duringBan = track.ban !== undefined;
  if (duringBan) {
    if (!unread(entry, track.ban!.answered, seen)) track.ban!.later.push(entry.seq);
  } else if (track.wait) judgeWaiting(track.wait, entry, t, seen);

  const end = waitEndOf(entry);
  if (banned && !duringBan) {
    // The ban replaces the wait: what comes during it is request-while-banned, not early-retry.
    closeWait(track, out);
    track.ban = { first: entry, answered: answeredMs(entry), until: end ?? Infinity, later: [] };
  } else if (WAIT_STATUSES.has(entry.status) && !banned && end !== undefined) announce(track, entry, end);

  if (entry.status !== 429) closeRun(track, out);
  else {
    // A request in flight when the previous 429 was answered is not a wait the client chose.
    if (track.run.entries.length === 0 || !unread(entry, track.run.answered, seen)) {
      track.run.entries.push(entry);
      track.run.answered = answeredMs(entry);
    }
  }
}

/**
 * early-retry, no-backoff and request-while-banned over the entries with a key, oldest first.
 * Keys are told apart by `group` (the whole key's fingerprint) and named by `name`.
 */
export function rateFindings(entries: readonly JournalEntry[], group: (entry: JournalEntry) => string, name: (entry: JournalEntry) => KeyName): AuditFinding[] {
  const tracks = new Map<string, Track>();
  const out: AuditFinding[] = [];
  const seen = new Set<string>();
  const note = (entry: JournalEntry): void => {
    const name = connectionName(entry);
    if (name !== undefined) seen.add(name);
  };
  for (const entry of entries) {
    if (entry.key === undefined) {
      note(entry);
      continue;
    }
    const id = group(entry);
    let track = tracks.get(id);
    if (!track) {
      track = { key: name(entry), run: { entries: [], answered: 0 } };
      tracks.set(id, track);
    }
    step(track, entry, out, seen);
    note(entry);
  }
  for (const track of tracks.values()) {
    closeWait(track, out);
    closeBan(track, out);
    closeRun(track, out);
  }
  return out;
}
