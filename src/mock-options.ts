// The library's options checked before anything starts: a wrong value is named with what to give
// instead, rather than surfacing later as a 500 on every request or a bare RangeError.
import { UserError } from './core/errors.js';
import { PLAN_LIMITS, PLAN_NAMES, parseKeySpec } from './core/state/plans.js';
import type { KeyConfig, Limits, PlanName } from './core/types.js';
import type { MockOptions } from './library-options.js';
import { MAX_INSTANT_MS } from './core/state/clock.js';
import { DAY_MS, MINUTE_MS, parseWindows, windowsProblem, withWindow } from './core/state/windows.js';

/** A library option with a value the mock cannot use; the message names the option. */
export class MockOptionError extends UserError {
  override name = 'MockOptionError';
}

function fail(option: string, wanted: string, value: unknown): never {
  const shown = typeof value === 'function' ? 'a function' : typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
  throw new MockOptionError(`the option "${option}" must be ${wanted}, not ${shown.slice(0, 80)}.`);
}

function integer(option: string, value: unknown, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(option, `a whole number from ${min} to ${max}`, value);
}

function text(option: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) fail(option, 'a non-empty string', value);
}

function callable(option: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') fail(option, 'a function', value);
}

/**
 * Refuses an option name `entry` does not know, as the command line refuses a flag: a misspelt
 * option (`key` for `keys`) would otherwise be dropped without a word. `known` lists every name the
 * entry takes (a known one given as undefined passes), `nearest` finds the known name meant, and
 * `next` says where the options are. The browser's build passes no `nearest`: its size is budgeted.
 */
export function checkOptionNames(
  options: unknown,
  known: Readonly<Record<string, boolean>>,
  entry: string,
  next: string,
  nearest?: (typed: string, names: readonly string[]) => string | undefined,
): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) fail('options', 'an object', options);
  const unknown = Object.keys(options).filter((name) => known[name] !== true);
  if (unknown.length === 0) return;
  const described = unknown.map((name) => {
    const near = nearest?.(name, Object.keys(known));
    return `${JSON.stringify(name)}${near === undefined ? '' : ` (did you mean "${near}"?)`}`;
  });
  throw new MockOptionError(`unknown option${unknown.length > 1 ? 's' : ''} ${described.join(', ')} given to ${entry}; ${next}.`);
}

/** The options this module checks, each of whatever type it was given. */
type CheckedOptions = { [K in keyof MockOptions | 'clientAddress']?: unknown };

/**
 * Checks the options of `startMock` and returns the keys in full: a key given as `{ key, plan }`
 * gets its plan's limits.
 */
export function checkOptions(options: CheckedOptions): KeyConfig[] {
  if (options === null || typeof options !== 'object') fail('options', 'an object', options);
  integer('port', options.port, 0, 65_535);
  text('host', options.host);
  text('scenario', options.scenario);
  text('adminToken', options.adminToken);
  if (options.allowHosts !== undefined) {
    if (!Array.isArray(options.allowHosts)) fail('allowHosts', 'an array of host names', options.allowHosts);
    options.allowHosts.forEach((h: unknown, i) => {
      if (typeof h !== 'string' || !/^[A-Za-z0-9.:[\]-]+$/.test(h)) fail(`allowHosts[${i}]`, 'a host name or address such as "mock.test" or "192.168.1.5"', h);
    });
  }
  integer('maxConnections', options.maxConnections, 1, 1_000_000);
  integer('maxSessions', options.maxSessions, 1, 100_000);
  const drain = options.drainTime;
  if (drain !== undefined && (typeof drain !== 'number' || !Number.isFinite(drain) || drain < 0 || drain > 3600))
    fail('drainTime', 'a number of seconds from 0 to 3600', drain);
  callable('onReload', options.onReload);
  if (options.watch !== undefined && typeof options.watch !== 'boolean') fail('watch', 'true or false', options.watch);
  const imported = options.import;
  if (imported !== undefined && (imported === null || (typeof imported !== 'string' && typeof imported !== 'object') || imported === ''))
    fail('import', 'a snapshot document or the path of a snapshot file', imported);
  text('exportOnExit', options.exportOnExit);
  const profile = options.profile;
  if (profile !== undefined && (profile === null || (typeof profile !== 'string' && typeof profile !== 'object') || profile === '' || Array.isArray(profile)))
    fail('profile', 'a profile document or the path of a profile file (petstore-mock verify --profile FILE)', profile);
  return checkCommonOptions(options);
}

/**
 * Checks the options `startMock` and the browser's `createFetchHandler` share, and returns the
 * keys in full. Apart, so that a page's build carries none of the server's checks.
 */
export function checkCommonOptions(options: CheckedOptions): KeyConfig[] {
  if (options === null || typeof options !== 'object') fail('options', 'an object', options);
  integer('seed', options.seed, 0, Number.MAX_SAFE_INTEGER);
  integer('pets', options.pets, 0, 10_000_000);
  if (options.fixtures !== undefined && typeof options.fixtures !== 'string' && !Array.isArray(options.fixtures))
    fail('fixtures', 'a file path or an array of animals', options.fixtures);
  callable('onRequest', options.onRequest);
  callable('now', options.now);
  text('clientAddress', options.clientAddress);
  if (options.keys === undefined) return [];
  if (!Array.isArray(options.keys)) fail('keys', 'an array of "KEY:PLAN" strings or { key, plan, limits? } objects', options.keys);
  return options.keys.map((entry: unknown, i) => keyOf(entry, `keys[${i}]`));
}

/** What `close()` takes: how long a lame duck comes before the drain, and a way to hurry both. */
export interface CloseOptions {
  /**
   * Seconds to go on accepting and answering before the drain, every answer with
   * `Connection: close` and `/__admin/health` answering 503, so that a load balancer takes the
   * mock out first (0 by default; the command's SIGTERM uses `--lame-duck-time`).
   */
  lameDuck?: number;
  /**
   * Aborting it ends the lame duck and cuts the drain at once: answers still in flight are cut,
   * what comes after the drain (`exportOnExit`) is still done. The command aborts it on a second signal.
   */
  signal?: AbortSignal;
}

/** The options of `close(options)`, checked: the lame duck in seconds (0 by default), and the signal that hurries the stop. */
export function checkCloseOptions(options: CloseOptions | undefined): { lameDuck: number; signal?: AbortSignal } {
  const { lameDuck = 0, signal } = options ?? {};
  if (typeof lameDuck !== 'number' || !Number.isFinite(lameDuck) || lameDuck < 0 || lameDuck > 3600)
    fail('lameDuck', 'a number of seconds from 0 to 3600', lameDuck);
  if (signal !== undefined && !(signal instanceof AbortSignal)) fail('signal', 'an AbortSignal', signal);
  return { lameDuck, signal };
}

/** Why an option cannot work with a shared state, in the words the CLI uses for its flag. */
const NOT_WITH_STATE: Record<string, string> = {
  watch: 'reloads files into the sessions of this process, and with "state" the sessions live in Redis',
  onReload: 'is called by "watch", which cannot work with "state"',
  now: "moves this process's clocks, and with \"state\" every session's clock is kept in Redis, on Redis's time",
  import:
    'restores the default session at start, which every replica joining would do again over the shared session; restore it once with PUT /__admin/snapshot (or mock.restore()) instead',
  exportOnExit:
    'writes the default session on exit, which every replica stopping would do; take it once with GET /__admin/snapshot (or mock.snapshot()) before stopping the deployment',
};

/**
 * Refuses the options that cannot work when sessions live in a shared state, naming both, rather
 * than starting and silently ignoring them.
 */
export function checkSharedOptions(options: object): void {
  for (const [option, why] of Object.entries(NOT_WITH_STATE)) {
    const value = (options as Record<string, unknown>)[option];
    if (value !== undefined && value !== false)
      throw new MockOptionError(`the option "${option}" cannot be used with "state": "${option}" ${why}; drop one of them.`);
  }
}

/** A key's `limits` option: window texts (`["10/s", "600/m"]`), windows (`{ lengthMs, max }`), or `{ perMinute, perDay }` over the plan's. */
function limitsOption(option: string, limits: unknown, plan: Limits): Limits {
  if (Array.isArray(limits) && limits.every((w): w is string => typeof w === 'string')) {
    const problem = windowsProblem(limits);
    if (problem !== undefined) fail(option, `windows such as ["10/s", "600/m", "100000/d"] (${problem})`, limits);
    return parseWindows(limits);
  }
  if (Array.isArray(limits) && limits.length > 0) {
    const windows = limits.map((w: unknown, i) => {
      const { lengthMs, max } = (w ?? {}) as { lengthMs?: unknown; max?: unknown };
      integer(`${option}[${i}].lengthMs`, lengthMs ?? NaN, 1, MAX_INSTANT_MS);
      integer(`${option}[${i}].max`, max ?? NaN, 1, Number.MAX_SAFE_INTEGER);
      return { lengthMs: lengthMs as number, max: max as number };
    });
    if (new Set(windows.map((w) => w.lengthMs)).size < windows.length) fail(option, 'windows of different lengths', limits);
    return windows.sort((a, b) => a.lengthMs - b.lengthMs);
  }
  if (limits === null || typeof limits !== 'object' || Array.isArray(limits))
    fail(option, 'windows such as ["10/s", "600/m"] or an object { perMinute, perDay }', limits);
  const { perMinute, perDay } = limits as { perMinute?: unknown; perDay?: unknown };
  integer(`${option}.perMinute`, perMinute, 1, Number.MAX_SAFE_INTEGER);
  integer(`${option}.perDay`, perDay, 1, Number.MAX_SAFE_INTEGER);
  return withWindow(withWindow(plan, MINUTE_MS, perMinute as number | undefined), DAY_MS, perDay as number | undefined);
}

function keyOf(entry: unknown, option: string): KeyConfig {
  // A string is what --key takes, and its errors (KeySpecError) are worded for it.
  if (typeof entry === 'string') return parseKeySpec(entry);
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) fail(option, 'a "KEY:PLAN" string or a { key, plan, limits? } object', entry);
  const { key, plan, limits, revoked } = entry as { key?: unknown; plan?: unknown; limits?: unknown; revoked?: unknown };
  if (typeof key !== 'string' || !/^[A-Za-z0-9\-._~+/]+=*$/.test(key))
    fail(`${option}.key`, 'a string a bearer token can hold (letters, digits and -._~+/)', key);
  if (typeof plan !== 'string' || !(PLAN_NAMES as string[]).includes(plan)) fail(`${option}.plan`, `one of ${PLAN_NAMES.join(', ')}`, plan);
  if (revoked !== undefined && typeof revoked !== 'boolean') fail(`${option}.revoked`, 'true or false', revoked);
  const config: KeyConfig = { key, plan: plan as PlanName, limits: PLAN_LIMITS[plan as PlanName] };
  if (limits !== undefined) {
    config.limits = limitsOption(`${option}.limits`, limits, config.limits);
    config.custom = true;
  }
  if (revoked === true) config.revoked = true;
  return config;
}
