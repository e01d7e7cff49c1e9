// The server start behind the command line: checks the parsed arguments, starts the mock and
// prints the banner. Both argument parsers (the fast one and yargs) end here.
import { UserError, named } from '../core/errors.js';
import { shownKey } from '../core/state/key-view.js';
import { parseKeySpecAs } from '../core/state/plans.js';
// The mock itself, not the library's entry: that also loads verify, the audit command and the
// remote client, which a start never uses (their code was a fifth of what a start compiled).
import { startMock, type RunningMock } from '../mock.js';
import type { SharedRunningMock } from '../shared-mock.js';
import type { ReloadReport } from '../files/live-reload.js';
import type { KeyConfig } from '../core/types.js';
import {
  VERSION,
  banner,
  exposedHostWarning,
  jsonLogLine,
  readyJsonLine,
  readyLine,
  readyLogLine,
  reloadFailedLine,
  reloadLine,
  startFailure,
  type ReadyInfo,
} from './messages.js';
import { withEnvironment } from './env-options.js';
import type { RawArgs } from './options.js';
import { createRequestLogger, type LogStats } from './request-log.js';
import { installStop } from './stopping.js';

/** A command line that cannot be used: printed as one line, exit code 1. */
export class UsageError extends UserError {
  override name = 'UsageError';
}

/**
 * A flag that takes one value: yargs makes an array of a repeated one, which must not reach the
 * server as `--host a,b` or a listen on every interface.
 */
export function givenOnce(flag: string, value: unknown): unknown {
  if (Array.isArray(value)) throw new UsageError(`--${flag} was given ${value.length} times; give it once.`);
  return value;
}

/** Prints the one line of a failed start and exits 1. */
export function fail(error: unknown): never {
  process.stderr.write(startFailure(error));
  process.exit(1);
}

/** The arguments of a server start, checked: the numbers read, the rest as typed. */
type ServeArgs = Omit<RawArgs, 'port' | 'seed' | 'pets' | 'lameDuckTime' | 'drainTime'> & {
  port: number;
  seed: number | undefined;
  pets: number | undefined;
  lameDuckTime: number;
  drainTime: number;
};

async function serve(args: ServeArgs): Promise<void> {
  // A reader that went away (petstore-mock | head, a harness that stopped reading) must not take
  // the server down with an EPIPE: the output just stops.
  let stdoutOpen = true;
  process.stdout.on('error', () => {
    stdoutOpen = false;
  });
  process.stderr.on('error', () => undefined);
  // A reader that stays but stops reading (a fixture that reads only the ready line) must not make
  // the log pile up in memory: past the stream's buffer, lines are dropped and counted until it drains.
  const logStats: LogStats = { droppedLines: 0, readerBehind: false };
  const out = (text: string): boolean => {
    if (!stdoutOpen || logStats.readerBehind) return false;
    if (!process.stdout.write(text)) {
      logStats.readerBehind = true;
      process.stdout.once('drain', () => {
        logStats.readerBehind = false;
      });
    }
    return true;
  };
  // With --log-format json, stdout holds JSON lines only: the banner, reloads and the stop are events.
  const json = args.logFormat === 'json';
  const onReload = (report: ReloadReport): void => {
    for (const error of report.errors) process.stderr.write(reloadFailedLine(error));
    if (report.errors.length > 0 && report.sessions.length === 0) return;
    out(
      json
        ? jsonLogLine('reloaded', { files: report.files, sessions: report.sessions, current: report.current })
        : reloadLine(report.files, report.sessions, report.current),
    );
  };
  const options = {
    port: args.port,
    host: args.host,
    seed: args.seed,
    pets: args.pets,
    fixtures: args.fixtures,
    scenario: args.scenario,
    keys: args.key,
    allowHosts: args.allowHost,
    adminToken: args.adminToken,
    drainTime: args.drainTime,
    onRequest: args.quiet ? undefined : createRequestLogger(args.logFormat, out, { stats: logStats }),
    logStats,
    ...(args.import !== undefined && { import: args.import }),
    ...(args.exportOnExit !== undefined && { exportOnExit: args.exportOnExit }),
    ...(args.profile !== undefined && { profile: args.profile }),
  };
  let mock: RunningMock | SharedRunningMock;
  let scenario: string;
  let keys: readonly KeyConfig[];
  if (args.state !== undefined) {
    const shared = await startMock({ ...options, state: args.state, statePrefix: args.statePrefix });
    mock = shared;
    scenario = (await shared.admin.scenario(undefined)).name;
    keys = shared.keys;
  } else {
    const local = await startMock({ ...options, watch: args.watch, onReload });
    mock = local;
    const { settings } = local.engine.sessions.defaultSession;
    scenario = settings.scenario;
    // After --import, the default session enforces the snapshot's keys and limits: those are printed.
    keys = args.import !== undefined ? settings.keys : local.keys;
  }

  // Stop cleanly from the moment anyone can know we are ready: a harness may signal right after the ready line.
  installStop((closeOptions) => mock.close(closeOptions), {
    lameDuckTime: args.lameDuckTime,
    drainTime: args.drainTime,
    log: (line) => void process.stderr.write(line),
    exit: (code) => process.exit(code),
    onEvent: json ? ({ event, ...fields }) => out(jsonLogLine(event, fields)) : undefined,
  });

  const info: ReadyInfo = {
    version: VERSION,
    url: mock.url,
    origin: mock.origin,
    port: mock.port,
    keys: keys.map((k) => ({ key: k.key, plan: k.plan, limits: k.limits, ...(k.revoked ? { revoked: true } : {}) })),
    scenario,
    pid: process.pid,
    adminProtected: args.adminToken !== undefined,
    watching: args.watch,
  };
  if (args.readyJson) out(readyJsonLine(info));
  else if (json) out(readyLogLine(info, shownKey));
  else out(args.quiet ? readyLine(info) : banner(info, shownKey));
  const warning = exposedHostWarning(args.host, info.adminProtected);
  if (warning) process.stderr.write(warning);
}

/** `name` is how the value was given: `--port`, or `PETSTORE_MOCK_PORT` from the environment. */
function parseInteger(name: string, min: number, max: number) {
  return (value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}.`);
    return Number(value);
  };
}

/** The prefix goes inside a Redis hash tag, so braces (and anything unusual in a key name) are refused. */
function statePrefix(value: string | undefined, state: string | undefined, label: (flag: string) => string): string | undefined {
  if (value !== undefined && state === undefined)
    throw new UsageError(`${label('state-prefix')} names a deployment in Redis and needs ${label('state')} redis://HOST:PORT/DB too.`);
  if (value !== undefined && !/^[A-Za-z0-9._:-]{1,64}$/.test(value))
    throw new UsageError(`${label('state-prefix')} must be 1 to 64 letters, digits and ._:-, not ${JSON.stringify(value)}.`);
  return value;
}

/** A blank token would leave the admin API as open as no token does, so it is a mistake, not "unset". */
function adminToken(value: string | undefined, label: (flag: string) => string): string | undefined {
  if (value !== undefined && value.trim() === '')
    throw new UsageError(`${label('admin-token')} is blank; give the admin token, or leave it out to run the admin API unprotected.`);
  return value;
}

/** Live reload restarts this process's sessions; with --state they live in Redis, shared with other instances. */
function watchWith(watch: boolean, state: string | undefined, label: (flag: string) => string): boolean {
  if (watch && state !== undefined)
    throw new UsageError(
      `${label('watch')} reloads files into the sessions of this process, and with ${label('state')} the sessions live in Redis; drop one of them.`,
    );
  return watch;
}

/**
 * Checks the arguments of a server start and starts it; a person's mistake exits with one line.
 * `argv` is the command line as typed: options it does not give come from `PETSTORE_MOCK_*`
 * variables (env-options.ts).
 */
export async function startFromArgs(commandLine: RawArgs, argv: readonly string[]): Promise<void> {
  let label = (flag: string): string => `--${flag}`;
  try {
    const completed = withEnvironment(commandLine, argv);
    const { args, warnings } = completed;
    label = completed.label;
    for (const warning of warnings) process.stderr.write(`${named(warning)}\n`);
    refuseImportConflicts(args, label);
    await serve({
      ...args,
      port: parseInteger(label('port'), 0, 65535)(args.port) ?? 4010,
      seed: parseInteger(label('seed'), 0, Number.MAX_SAFE_INTEGER)(args.seed),
      pets: parseInteger(label('pets'), 0, 10_000_000)(args.pets),
      key: args.key.map((spec) => {
        parseKeySpecAs(spec, label('key'));
        return spec;
      }),
      allowHost: args.allowHost.map((name) => {
        if (!/^[A-Za-z0-9.:[\]-]+$/.test(name))
          throw new UsageError(`${label('allow-host')} ${JSON.stringify(name)} is not a host name; give a name or address such as mock.test or 192.168.1.5.`);
        return name;
      }),
      adminToken: adminToken(args.adminToken, label),
      watch: watchWith(args.watch, args.state, label),
      lameDuckTime: parseInteger(label('lame-duck-time'), 0, 3600)(args.lameDuckTime) ?? 3,
      drainTime: parseInteger(label('drain-time'), 0, 3600)(args.drainTime) ?? 5,
      statePrefix: statePrefix(args.statePrefix, args.state, label),
    });
  } catch (error) {
    if (error instanceof UserError) fail(asGiven(error, label));
    throw error;
  }
}

/**
 * A mistake found past the start-up checks (a `--state` URL, say) is worded for the flag; when the
 * value came from a variable, the message names the variable the person actually set.
 */
function asGiven(error: UserError, label: (flag: string) => string): UserError {
  const flag = /^--([a-z-]+) /.exec(error.reason)?.[1];
  if (flag === undefined || label(flag) === `--${flag}`) return error;
  return new UsageError(`${label(flag)}${error.reason.slice(flag.length + 2)}`);
}

/**
 * `--import` restores the default session whole: its keys and limits, scenario and position, store
 * and data. A flag that says otherwise would be printed but not enforced (or enforced only in new
 * sessions), so it is refused, naming which wins and how to choose.
 */
function refuseImportConflicts(args: RawArgs, label: (flag: string) => string): void {
  if (args.import === undefined) return;
  const given: [string, boolean][] = [
    ['key', args.key.length > 0],
    ['scenario', args.scenario !== undefined],
    ['pets', args.pets !== undefined],
    ['seed', args.seed !== undefined],
    ['fixtures', args.fixtures !== undefined],
  ];
  const flag = given.find(([, present]) => present)?.[0];
  if (flag === undefined) return;
  throw new UsageError(
    `${label('import')} restores the default session from the snapshot, whose keys, limits, scenario and store win; ${label(flag)} would contradict it. Drop ${label(flag)} (the snapshot's own are printed at start), or drop ${label('import')} to start from ${label(flag)}.`,
  );
}
