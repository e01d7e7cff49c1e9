// The server start behind the command line: checks the parsed arguments, starts the mock and
// prints the banner. Both argument parsers (the fast one and yargs) end here.
import type { RawArgs } from './fast-args.js';
import { FixtureError } from '../core/input/fixtures.js';
import { redactKey } from '../core/pipeline/auth.js';
import { KeySpecError, demoKeys } from '../core/state/plans.js';
import { createRequestLogger, type LogFormat, type LogStats } from './request-log.js';
import { ScenarioError } from '../core/scenarios/scenario-compiler.js';
import { startMock, type RunningMock, type SharedRunningMock } from '../index.js';
import { MockOptionError } from '../mock-options.js';

export const VERSION = '0.1.0';

/** A problem the user can fix: printed as one line, exit code 1. */
export class UsageError extends Error {}

export function fail(message: string): never {
  process.stderr.write(`${message.startsWith('petstore-mock') ? '' : 'petstore-mock: '}${message}\n`);
  process.exit(1);
}

/** The banner shows the public demo keys whole and redacts keys given with --key, as the log does. */
function shownKey(key: string): string {
  return DEMO_KEYS.has(key) ? key : redactKey(key);
}
const DEMO_KEYS = new Set(demoKeys().map((k) => k.key));

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

async function serve(args: {
  port: number; host: string; seed: number | undefined; pets: number | undefined; fixtures: string | undefined;
  scenario: string | undefined; key: string[]; allowHost: string[]; adminToken: string | undefined; logFormat: LogFormat; quiet: boolean; readyJson: boolean;
  state: string | undefined; statePrefix: string | undefined;
}): Promise<void> {
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
  let mock: RunningMock | SharedRunningMock;
  let scenario: string;
  try {
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
      onRequest: args.quiet ? undefined : createRequestLogger(args.logFormat, out, { stats: logStats }),
      logStats,
    };
    if (args.state !== undefined) {
      // A start that cannot reach Redis, or joins a deployment with other settings, ends here with one line.
      const shared = await startMock({ ...options, state: args.state, statePrefix: args.statePrefix }).catch((error: unknown) => {
        if (error instanceof Error && error.message.startsWith('petstore-mock')) fail(error.message);
        throw error;
      });
      mock = shared;
      scenario = (await shared.admin.scenario(undefined)).name;
    } else {
      const local = await startMock(options);
      mock = local;
      scenario = local.engine.sessions.defaultWorld.settings.scenario;
    }
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') fail(`port ${args.port} on ${args.host} is already in use; stop the other server or pass --port 0 to take a free port.`);
    if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') fail(`cannot listen on host ${args.host}; pass --host 127.0.0.1 or an address of this machine.`);
    if (err.code === 'EACCES') fail(`not allowed to listen on port ${args.port}; pick a port above 1023 or --port 0.`);
    if (error instanceof FixtureError || error instanceof KeySpecError || error instanceof ScenarioError || error instanceof MockOptionError) fail(err.message);
    throw error;
  }

  // Stop cleanly from the moment anyone can know we are ready: a harness may signal right after the ready line.
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(0), 3000);
    force.unref();
    void mock.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  if (args.readyJson) {
    out(`${JSON.stringify({ event: 'ready', url: mock.url, origin: mock.origin, port: mock.port, admin: `${mock.origin}/__admin/`, keys: mock.keys.map((k) => ({ key: k.key, plan: k.plan, ...k.limits, ...(k.revoked ? { revoked: true } : {}) })), scenario, pid: process.pid })}\n`);
  } else {
    const lines = [`petstore-mock ${VERSION} listening on ${mock.url}`];
    if (!args.quiet) {
      lines.push(
        `  keys      ${mock.keys.map((k) => `${shownKey(k.key)} (${k.plan}, ${k.limits.perMinute}/min, ${k.limits.perDay}/day${k.revoked ? ', revoked' : ''})`).join('\n            ')}`,
        `  scenario  ${scenario}`,
        `  admin     ${mock.origin}/__admin/`,
        `  contract  ${mock.url}/openapi.json`,
        `  try       curl -H "Authorization: Bearer demo-free" "${mock.url}/pets?limit=5"`,
        '',
      );
    }
    out(`${lines.join('\n')}\n`);
  }
  if (!LOOPBACK.test(args.host)) {
    const exposed = args.adminToken === undefined ? 'its public demo keys and its admin API (unprotected: add --admin-token)' : 'its public demo keys';
    process.stderr.write(`petstore-mock: listening on ${args.host}, so other machines can reach this mock and ${exposed}; use --host 127.0.0.1 to keep it local.\n`);
  }

}

function parseInteger(name: string, min: number, max: number) {
  return (value: unknown): number | undefined => {
    if (value === undefined) return undefined;
    const text = String(value);
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(text)}.`);
    return Number(text);
  };
}

/** The prefix goes inside a Redis hash tag, so braces (and anything unusual in a key name) are refused. */
function statePrefix(value: string | undefined, state: string | undefined): string | undefined {
  if (value !== undefined && state === undefined) throw new UsageError('--state-prefix names a deployment in Redis and needs --state redis://HOST:PORT/DB too.');
  if (value !== undefined && !/^[A-Za-z0-9._:-]{1,64}$/.test(value)) throw new UsageError(`--state-prefix must be 1 to 64 letters, digits and ._:-, not ${JSON.stringify(value)}.`);
  return value;
}

/** Checks the arguments of a server start and starts it; a usage problem exits with one line. */
export async function startFromArgs(args: RawArgs): Promise<void> {
  try {
    await serve({
      port: parseInteger('port', 0, 65535)(args.port) ?? 4010,
      host: args.host,
      seed: parseInteger('seed', 0, Number.MAX_SAFE_INTEGER)(args.seed),
      pets: parseInteger('pets', 0, 10_000_000)(args.pets),
      fixtures: args.fixtures,
      scenario: args.scenario,
      key: args.key.map(String),
      allowHost: args.allowHost.map((name) => {
        if (!/^[A-Za-z0-9.:[\]-]+$/.test(name)) throw new UsageError(`--allow-host ${JSON.stringify(name)} is not a host name; give a name or address such as mock.test or 192.168.1.5.`);
        return name;
      }),
      adminToken: args.adminToken,
      logFormat: args.logFormat,
      quiet: args.quiet,
      readyJson: args.readyJson,
      state: args.state,
      statePrefix: statePrefix(args.statePrefix, args.state),
    });
  } catch (error) {
    if (error instanceof UsageError) fail(error.message);
    throw error;
  }
}
