import type { LimitsSpec, UsageLineSpec } from './scenario-spec.js';
import { DAY_MS, MINUTE_MS, WINDOW_UNITS, limitOf, limitsText, parseWindows, windowsProblem, withWindow } from '../state/windows.js';
import type { KeyConfig, Limits } from '../types.js';
import type { SessionSettings } from '../state/session-state.js';

/** The limits a plan or key entry gives: its own windows, or `base` with the minute and day it names; a string says what is wrong. */
export function specLimits(entry: LimitsSpec | undefined, base: Limits): Limits | string {
  if (entry?.limits === undefined) return withWindow(withWindow(base, MINUTE_MS, entry?.perMinute), DAY_MS, entry?.perDay);
  if (entry.perMinute !== undefined || entry.perDay !== undefined)
    return 'limits lists every window; give the minute and the day there, not also as perMinute or perDay';
  return windowsProblem(entry.limits) ?? parseWindows(entry.limits);
}

/** The windows a usage line can fill, by the name it gives them, and the unit of each in `limits`. */
const USAGE_UNITS = { second: 's', minute: 'm', hour: 'h', day: 'd' } as const;
type UsageWindow = keyof typeof USAGE_UNITS & keyof UsageLineSpec;

/** The names a usage line gives windows (`second`, `minute`, `hour`, `day`), as the schema lists them. */
export const USAGE_WINDOWS = Object.keys(USAGE_UNITS) as readonly UsageWindow[];

const lengthOf = (name: UsageWindow): number => WINDOW_UNITS[USAGE_UNITS[name]] ?? NaN;

/** A key's preset counts, one for each of its windows. */
type KeyUsage = Omit<SessionSettings['usage'][number], 'bannedForMs'>;

/**
 * The keys a usage line fills ("*": every key) and their counts: every window of each, as a
 * request would make them, the windows the line names taken from it ("full": the window's limit).
 * Throws what `mistake` makes, at the line's field, for a key the server does not have and for a
 * window no key of the line has: a line fills only windows that exist, so a misread plan is not
 * silently a no-op. With "*", a key without the window is left as it is.
 */
export function usageOf(line: UsageLineSpec, keys: readonly KeyConfig[], mistake: (field: string, message: string) => Error): KeyUsage[] {
  const targets = line.key === '*' ? keys : keys.filter((k) => k.key === line.key);
  if (line.key !== '*' && targets.length === 0) {
    throw mistake('key', `usage names the key ${JSON.stringify(line.key)}, which this server does not have; add it under keys, or write "*" for every key`);
  }
  for (const name of USAGE_WINDOWS) {
    if (line[name] === undefined || targets.length === 0 || targets.some((k) => limitOf(k.limits, lengthOf(name)) !== undefined)) continue;
    const a = name === 'hour' ? 'an' : 'a';
    const add = `such as "100/${USAGE_UNITS[name]}"`;
    const only = line.key === '*' ? undefined : targets[0];
    throw mistake(
      name,
      only === undefined
        ? `usage fills the ${name} of every key, but no key has ${a} ${name} window; give a plan or a key one in its limits, ${add}`
        : `usage fills the ${name} of the key ${JSON.stringify(line.key)}, which has no ${name} window (its windows are ${limitsText(only.limits).join(', ')}); fill one of those, or give the key ${a} ${name} window in its limits, ${add}`,
    );
  }
  return targets.map((k) => ({
    key: k.key,
    counts: k.limits.map((w) => {
      const name = USAGE_WINDOWS.find((n) => lengthOf(n) === w.lengthMs);
      const used = name === undefined ? undefined : line[name];
      return { lengthMs: w.lengthMs, count: used === 'full' ? w.max : (used ?? 0) };
    }),
  }));
}
