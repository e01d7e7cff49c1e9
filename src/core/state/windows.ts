import type { Limits, RateWindow } from '../types.js';

/** The units a window may be written in, and their lengths: `10/s`, `600/m`, `5000/h`, `100000/d`. */
// Without a prototype: a unit such as `constructor` must find nothing, not Object's member.
export const WINDOW_UNITS: Readonly<Record<string, number>> = Object.assign(Object.create(null) as Record<string, number>, {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
});

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

// The journal and the audit named the minute and the day before there were other windows.
const NAMES: Readonly<Record<number, string>> = { 1_000: 'second', 60_000: 'minute', 3_600_000: 'hour', 86_400_000: 'day' };

/** Limits of a minute and a UTC day, the shape every plan has. */
export function minuteDay(perMinute: number, perDay: number): Limits {
  return [
    { lengthMs: MINUTE_MS, max: perMinute },
    { lengthMs: DAY_MS, max: perDay },
  ];
}

/** The name of a window's length, as decisions and the journal give it: `second`, `minute`, `hour`, `day`, else `90000ms`. */
export function windowName(lengthMs: number): string {
  return NAMES[lengthMs] ?? `${lengthMs}ms`;
}

/** A window as scenario files and `--key` write it (`600/m`); a length of no unit in milliseconds (`5/90000ms`). */
export function windowText(w: RateWindow): string {
  const unit = Object.keys(WINDOW_UNITS).find((u) => WINDOW_UNITS[u] === w.lengthMs);
  return unit === undefined ? `${w.max}/${w.lengthMs}ms` : `${w.max}/${unit}`;
}

/** Limits as scenario files write them: `["60/m", "1000/d"]`. */
export function limitsText(limits: Limits): string[] {
  return limits.map(windowText);
}

/** The most a window of this length allows, or undefined when the limits have no such window. */
export function limitOf(limits: Limits, lengthMs: number): number | undefined {
  for (const w of limits) if (w.lengthMs === lengthMs) return w.max;
  return undefined;
}

/** Why a list of window texts cannot be limits, in words; undefined when it can. */
export function windowsProblem(texts: readonly string[]): string | undefined {
  if (texts.length === 0) return 'it needs at least one window, such as "60/m"';
  const seen = new Set<string>();
  for (const text of texts) {
    const m = /^(\d{1,12})\/([a-z]+)$/.exec(text);
    if (!m) return `${JSON.stringify(text)} is not a window; write COUNT/UNIT, such as "10/s", "600/m", "5000/h" or "100000/d"`;
    const [, count = '', unit = ''] = m;
    if (WINDOW_UNITS[unit] === undefined) return `${JSON.stringify(text)} has the unit ${JSON.stringify(unit)}; the units are s, m, h and d`;
    if (Number(count) < 1) return `${JSON.stringify(text)} allows no request; a window needs a count of at least 1`;
    if (seen.has(unit)) return `the unit ${JSON.stringify(unit)} is given twice; give each window once`;
    seen.add(unit);
  }
  return undefined;
}

/** Window texts as limits, shortest window first. Check them with `windowsProblem` first. */
export function parseWindows(texts: readonly string[]): Limits {
  return texts
    .map((text) => {
      const [count = '', unit = ''] = text.split('/');
      return { lengthMs: WINDOW_UNITS[unit] ?? NaN, max: Number(count) };
    })
    .sort((a, b) => a.lengthMs - b.lengthMs);
}

/** `limits` with the window of `lengthMs` allowing `max` (added when missing); unchanged when `max` is undefined. */
export function withWindow(limits: Limits, lengthMs: number, max: number | undefined): Limits {
  if (max === undefined) return limits;
  const others = limits.filter((w) => w.lengthMs !== lengthMs);
  return [...others, { lengthMs, max }].sort((a, b) => a.lengthMs - b.lengthMs);
}
