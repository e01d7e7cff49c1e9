import { named } from '../errors.js';

/** A source of real time, injected so tests and scenarios never depend on the wall clock. */
export type TimeSource = () => number;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a duration such as `90s`, `1m30s`, `250ms`, `2h` or `1d` (or a bare number of
 * milliseconds) into milliseconds. Returns undefined when the text is not a duration.
 */
export function parseDuration(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isFinite(text) && text >= 0 ? text : undefined;
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let consumed = 0;
  let match: RegExpExecArray | null;
  while ((match = part.exec(trimmed)) !== null) {
    // Both groups take part in every match, and the unit group admits only UNIT_MS's keys.
    const [, amount = '', unit = ''] = match;
    const unitMs = UNIT_MS[unit];
    if (unitMs === undefined) return undefined;
    total += Number(amount) * unitMs;
    consumed = part.lastIndex;
  }
  if (consumed === 0 || consumed !== trimmed.length) return undefined;
  return Math.round(total);
}

/** The furthest instant from 1970 a JavaScript Date can hold (about 275,760 years either way). */
export const MAX_INSTANT_MS = 8.64e15;

/** True when `ms` is an instant the clock can be set to (and still print as ISO-8601). */
export function isValidInstant(ms: number): boolean {
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_INSTANT_MS;
}

/**
 * The instant `ms` would be, kept within what a Date holds: a ban of 100,000,000 days from today
 * ends at the last instant rather than at one no answer could print.
 */
export function clampInstant(ms: number): number {
  return Math.max(-MAX_INSTANT_MS, Math.min(MAX_INSTANT_MS, ms));
}

/** A point-in-time reading of a clock, as the admin API reports it. */
export interface ClockState {
  now: string;
  frozen: boolean;
}

/**
 * One session's virtual clock. It runs with real time, shifted by an offset, until it is frozen;
 * `set` and `advance` move it either way. Windows, bans and the removal date read it.
 */
export class VirtualClock {
  private offsetMs = 0;
  private frozenAt: number | undefined;

  constructor(private readonly realNow: TimeSource = Date.now) {}

  now(): number {
    if (this.frozenAt !== undefined) return this.frozenAt;
    // A running clock set near the last instant would otherwise run past what a Date can hold.
    return Math.min(MAX_INSTANT_MS, this.realNow() + this.offsetMs);
  }

  get frozen(): boolean {
    return this.frozenAt !== undefined;
  }

  /** True while the clock reads real time: running, never set or advanced. */
  get isReal(): boolean {
    return this.frozenAt === undefined && this.offsetMs === 0;
  }

  /** The real time the clock runs on, for records that keep both times. */
  realTime(): number {
    return this.realNow();
  }

  /**
   * Moves the clock to `instantMs`, keeping it frozen or running as it was. Throws a RangeError
   * for an instant no Date can hold: every answer prints the clock's time.
   */
  set(instantMs: number): void {
    if (!isValidInstant(instantMs)) {
      throw new RangeError(
        named(`the clock cannot be set to ${instantMs} ms; it holds instants within ±${MAX_INSTANT_MS} ms of 1970 (years -271821 to 275760).`),
      );
    }
    if (this.frozenAt !== undefined) this.frozenAt = instantMs;
    else this.offsetMs = instantMs - this.realNow();
  }

  /** Moves the clock forward (or back, for a negative amount) by `ms`. */
  advance(ms: number): void {
    this.set(this.now() + ms);
  }

  freeze(): void {
    this.frozenAt ??= this.now();
  }

  unfreeze(): void {
    if (this.frozenAt === undefined) return;
    this.offsetMs = this.frozenAt - this.realNow();
    this.frozenAt = undefined;
  }

  /** Back to real time, running. */
  restore(): void {
    this.offsetMs = 0;
    this.frozenAt = undefined;
  }

  state(): ClockState {
    return { now: new Date(this.now()).toISOString(), frozen: this.frozen };
  }
}

// Years are four digits, or six with a sign (ISO 8601's expanded years, as toISOString writes
// those before year 0 and after 9999), so that every instant a clock reports can be set again.
const ISO_INSTANT = /^(\d{4}|[+-]\d{6})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Reads an ISO-8601 instant with a zone, such as `2030-12-05T00:00:00Z`, strictly: a day or an
 * hour that does not exist (`2030-02-30`, `24:30`) is refused rather than rolled over as
 * `Date.parse` does, and so is any other form `Date.parse` guesses at (`December 5, 2030`).
 * Scenario files, the admin API and the library all read instants here. Returns epoch
 * milliseconds, or undefined.
 */
export function parseInstant(text: string): number | undefined {
  const m = ISO_INSTANT.exec(text);
  if (!m || m[1] === '-000000') return undefined;
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((v) => Number(v ?? 0));
  const fields = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  fields.setUTCFullYear(year, month - 1, day);
  fields.setUTCHours(hour, minute, second);
  const exists =
    fields.getUTCFullYear() === year &&
    fields.getUTCMonth() === month - 1 &&
    fields.getUTCDate() === day &&
    fields.getUTCHours() === hour &&
    fields.getUTCMinutes() === minute &&
    fields.getUTCSeconds() === second;
  const ms = Date.parse(text);
  return exists && isValidInstant(ms) ? ms : undefined;
}

let dateSecond = NaN;
let dateText = '';

/**
 * The HTTP-date (`Sun, 06 Nov 1994 08:49:37 GMT`) of an instant, to the whole second below it.
 * Remembered per second: every answer carries one, and formatting a date per request showed in
 * the list endpoint's throughput.
 */
export function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== dateSecond) {
    dateText = new Date(second * 1000).toUTCString();
    dateSecond = second;
  }
  return dateText;
}

/** What to write instead of an instant `parseInstant` refused, for messages. */
export const INSTANT_HINT = 'an ISO-8601 instant with a zone that exists, such as "2030-12-05T00:00:00Z" or "2030-12-05T01:00:00+01:00"';
