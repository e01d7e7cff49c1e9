import type { BanRule, KeyConfig, Limits, PlanName } from '../types.js';
import { UserError } from '../errors.js';
import { minuteDay, parseWindows, windowsProblem } from './windows.js';

/**
 * The plans of the specification. Enterprise is "custom" there; the mock gives it a documented
 * default that `--key KEY:enterprise:10/s,600/m,100000/d` (or `:PER_MINUTE:PER_DAY`) or a scenario can override.
 */
export const PLAN_LIMITS: Readonly<Record<PlanName, Limits>> = {
  free: minuteDay(60, 1_000),
  pro: minuteDay(300, 10_000),
  business: minuteDay(1_000, 100_000),
  enterprise: minuteDay(5_000, 1_000_000),
};

export const PLAN_NAMES = Object.keys(PLAN_LIMITS) as PlanName[];

/** Clients without a valid key are counted per address at the Free plan's limits. */
export const ANONYMOUS_LIMITS: Limits = PLAN_LIMITS.free;

/** Default ban: more than 10 requests refused in a row while limited bans the key for 5 minutes. */
export const DEFAULT_BAN_RULE: BanRule = { after: 10, durationMs: 5 * 60_000 };

/** The demo keys, one per plan, valid unless a scenario says otherwise. */
export function demoKeys(): KeyConfig[] {
  return PLAN_NAMES.map((plan) => ({ key: `demo-${plan}`, plan, limits: PLAN_LIMITS[plan] }));
}

/** A `--key` value that cannot be used; the message says how to write one. */
export class KeySpecError extends UserError {
  override name = 'KeySpecError';
}

/** Parses `KEY:PLAN`, `KEY:PLAN:WINDOW,WINDOW…` (`10/s,600/m,100000/d`) or `KEY:PLAN:PER_MINUTE:PER_DAY`, as the `--key` flag takes it. */
export function parseKeySpec(spec: string): KeyConfig {
  return parseKeySpecAs(spec, '--key');
}

/** `parseKeySpec`, its messages naming `given` (`PETSTORE_MOCK_KEY` when the environment gave the value). */
export function parseKeySpecAs(spec: string, given: string): KeyConfig {
  const parts = spec.split(':');
  const usage = `write ${given}${given.startsWith('--') ? ' ' : '='}KEY:PLAN, KEY:PLAN:10/s,600/m,100000/d (windows of s, m, h or d) or KEY:PLAN:PER_MINUTE:PER_DAY, PLAN one of free, pro, business, enterprise`;
  if (parts.length < 2 || parts.length > 4) throw new KeySpecError(`${given} ${JSON.stringify(spec)} is not valid; ${usage}.`);
  const [key = '', planText = '', perMinuteText, perDayText] = parts;
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(key)) {
    throw new KeySpecError(`${given} ${JSON.stringify(spec)} has a key with characters a bearer token cannot hold; use letters, digits and -._~+/.`);
  }
  const plan = planText.toLowerCase() as PlanName;
  if (!PLAN_NAMES.includes(plan)) throw new KeySpecError(`${given} ${JSON.stringify(spec)} names an unknown plan ${JSON.stringify(planText)}; ${usage}.`);
  if (perMinuteText === undefined) return { key, plan, limits: PLAN_LIMITS[plan] };
  if (perDayText === undefined) {
    const problem = windowsProblem(perMinuteText.split(','));
    if (problem !== undefined) throw new KeySpecError(`${given} ${JSON.stringify(spec)} is not valid: ${problem}; ${usage}.`);
    return { key, plan, limits: parseWindows(perMinuteText.split(',')), custom: true };
  }
  const count = (n: string): number => (/^\d{1,12}$/.test(n) ? Number(n) : NaN);
  const perMinute = count(perMinuteText);
  const perDay = count(perDayText);
  if (!(perMinute >= 1 && perDay >= 1))
    throw new KeySpecError(`${given} ${JSON.stringify(spec)} needs whole numbers of at least 1 for PER_MINUTE and PER_DAY.`);
  return { key, plan, limits: minuteDay(perMinute, perDay), custom: true };
}

/** Shows enough of a key to recognise it, never the whole: `demo…ree` style. */
export function redactKey(key: string): string {
  if (key.length <= 4) return '****';
  if (key.length <= 8) return `${key.slice(0, 2)}…${key.slice(-1)}`;
  return `${key.slice(0, 4)}…${key.slice(-3)}`;
}
