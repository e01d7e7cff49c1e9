// What the command line prints, as pure functions of what it knows: the banner, the ready line,
// the warning for a host others can reach, and the one line a failed start leaves on stderr.
import { UserError, named } from '../core/errors.js';
import { MINUTE_MS, DAY_MS, limitOf, limitsText } from '../core/state/windows.js';
import type { Limits } from '../core/types.js';

// Defined at build time from package.json (scripts/build.mjs; vitest.config.ts for the tests).
declare const __PETSTORE_VERSION__: string;

/** The version of petstore-mock, as package.json says. */
export const VERSION: string = __PETSTORE_VERSION__;

/** A key as the banner and ready line show it. */
export interface ShownKey {
  key: string;
  plan: string;
  limits: Limits;
  revoked?: boolean;
}

/** What the banner and the ready line report about a started server. */
export interface ReadyInfo {
  version: string;
  url: string;
  origin: string;
  port: number;
  keys: readonly ShownKey[];
  scenario: string;
  pid: number;
  /** Whether --admin-token protects the admin API (the page then asks for it). */
  adminProtected: boolean;
  watching: boolean;
}

/** The admin page's address. */
export function adminUrl(origin: string): string {
  return `${origin}/__admin/`;
}

/**
 * The readiness URL: 200 once the API accepts requests, 503 while stopping. The one to wait on
 * (wait-on, start-server-and-test, a health check): the API's base URL itself answers 404.
 */
export function healthUrl(origin: string): string {
  return `${origin}/__admin/health`;
}

/** The ready line's fields, keys shown by `shownKey`. */
function readyFields(info: ReadyInfo, shownKey: (key: string) => string): Record<string, unknown> {
  // perMinute and perDay stay for the harnesses that read them, when the key has those windows.
  const keys = info.keys.map((k) => ({
    key: shownKey(k.key),
    plan: k.plan,
    perMinute: limitOf(k.limits, MINUTE_MS),
    perDay: limitOf(k.limits, DAY_MS),
    limits: limitsText(k.limits),
    ...(k.revoked ? { revoked: true } : {}),
  }));
  return {
    url: info.url,
    origin: info.origin,
    port: info.port,
    admin: adminUrl(info.origin),
    health: healthUrl(info.origin),
    keys,
    scenario: info.scenario,
    pid: info.pid,
  };
}

/** The `--ready-json` line: one JSON object for harnesses, keys whole (they came from the command line). */
export function readyJsonLine(info: ReadyInfo): string {
  return `${JSON.stringify({ event: 'ready', ...readyFields(info, (key) => key) })}\n`;
}

/**
 * One line of the JSON log (`--log-format json`), in the request lines' shape: stdout then holds
 * JSON lines only, from the start to the stop, for `docker logs … | jq` and log collectors.
 */
export function jsonLogLine(msg: string, fields: Record<string, unknown> = {}, level: 'info' | 'warn' = 'info'): string {
  return `${JSON.stringify({ level, msg, event: msg, ...fields })}\n`;
}

/**
 * The banner of the JSON log: the ready line's fields as one event, keys shown as the banner shows
 * them (a log is collected and kept; the command line's keys are not printed whole there).
 */
export function readyLogLine(info: ReadyInfo, shownKey: (key: string) => string): string {
  return jsonLogLine('ready', { version: info.version, ...readyFields(info, shownKey) });
}

const WORDS: Readonly<Record<number, string>> = { 60_000: 'min', 86_400_000: 'day' };

/** Limits as the banner shows them: `60/min, 1000/day`, other windows as written (`10/s`, `500/h`). */
function limitsWords(limits: Limits): string {
  return limits.map((w, i) => (WORDS[w.lengthMs] === undefined ? (limitsText(limits)[i] ?? '') : `${w.max}/${WORDS[w.lengthMs]}`)).join(', ');
}

/** The plain ready line: the base URL people and scripts look for. */
export function readyLine(info: Pick<ReadyInfo, 'version' | 'url'>): string {
  return `petstore-mock ${info.version} listening on ${info.url}\n`;
}

/**
 * The banner: the ready line, then keys, scenario, admin page, readiness URL, contract and a curl line to try.
 * `shownKey` decides how much of a key is printed (demo keys whole, others redacted).
 */
export function banner(info: ReadyInfo, shownKey: (key: string) => string): string {
  const keys = info.keys.map((k) => `${shownKey(k.key)} (${k.plan}, ${limitsWords(k.limits)}${k.revoked ? ', revoked' : ''})`);
  const admin = info.adminProtected ? `${adminUrl(info.origin)}  (asks for the --admin-token value)` : adminUrl(info.origin);
  const lines = [
    readyLine(info).trimEnd(),
    `  keys      ${keys.join('\n            ')}`,
    `  scenario  ${info.scenario}${info.watching ? '  (--watch: files reload on change)' : ''}`,
    `  admin     ${admin}`,
    `  health    ${healthUrl(info.origin)}  (200 once ready: wait on this)`,
    `  contract  ${info.url}/openapi.json`,
    `  try       curl -H "Authorization: Bearer demo-free" "${info.url}/pets?limit=5"`,
    '',
  ];
  return `${lines.join('\n')}\n`;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/** The warning for a host other machines can reach, or undefined for a loopback host. */
export function exposedHostWarning(host: string, adminProtected: boolean): string | undefined {
  if (LOOPBACK.test(host)) return undefined;
  const exposed = adminProtected ? 'its public demo keys' : 'its public demo keys and its admin API (unprotected: add --admin-token)';
  return `${named(`listening on ${host}, so other machines can reach this mock and ${exposed}; use --host 127.0.0.1 to keep it local.`)}\n`;
}

/**
 * The one stderr line of a start (or with `doing`, a stop) that failed: a person's mistake (an
 * export path, say) as it is, anything else as a failure to report.
 */
export function startFailure(error: unknown, doing = 'failed to start'): string {
  if (error instanceof UserError) return `${error.message}\n`;
  return `${named(`${doing}: ${error instanceof Error ? error.message : String(error)}`)}\n`;
}

/**
 * A line of one reload under --watch: the sessions restarted, and those that already ran what the
 * files now say (a fix that brought back the running version restarts nothing, and says so).
 */
export function reloadLine(files: readonly string[], sessions: readonly string[], current: readonly string[] = []): string {
  const parts: string[] = [];
  if (sessions.length > 0) parts.push(`restarted ${sessions.length === 1 ? 'session' : 'sessions'} ${sessions.join(', ')}`);
  if (current.length > 0)
    parts.push(`${current.length === 1 ? 'session' : 'sessions'} ${current.join(', ')} already ${current.length === 1 ? 'runs' : 'run'} this version`);
  return `${named(`reloaded ${files.join(', ')}; ${parts.length === 0 ? 'no session uses it' : parts.join('; ')}.`)}\n`;
}

/** The line of a reload that found a mistake: the mistake, and that the old version keeps running. */
export function reloadFailedLine(error: UserError): string {
  return `${named(`${error.reason.replace(/\.$/, '')}. The previous version keeps running.`)}\n`;
}

/** Why a server started by npx stops by itself: the npm process that started it went away. */
export function launcherGoneLine(): string {
  return `${named('the npm process that started this server has gone (npx or npm run was stopped); stopping too.')}\n`;
}
