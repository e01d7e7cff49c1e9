// Every flag of the option table (options.ts) can also be given as an environment variable, where
// containers carry their configuration: a CI `services:` entry or a compose file sets variables
// and cannot pass arguments. The names and the reading are derived from the table alone, so a new
// flag gets its variable with no change here. A flag on the command line wins over its variable.
import { UserError } from '../core/errors.js';
import { OPTIONS, type Option, type RawArgs } from './options.js';
import { editDistance } from '../core/near-name.js';
import { readSwitch, switchMistake } from './switch-values.js';

/** The prefix of every variable petstore-mock reads. */
export const ENV_PREFIX = 'PETSTORE_MOCK_';

/** The variable of a flag: `--allow-host` is `PETSTORE_MOCK_ALLOW_HOST`. */
export function envName(option: Option): string {
  return `${ENV_PREFIX}${option.flag.toUpperCase().replace(/-/g, '_')}`;
}

/**
 * The long flags a command line gives, in any form a parser takes: `--port 1`, `--port=1`,
 * `-p1`, `--no-quiet`, `--allowHost x`. Words after `--` are not flags.
 */
export function flagsGiven(argv: readonly string[]): Set<string> {
  const given = new Set<string>();
  for (const arg of argv) {
    if (arg === '--') break;
    if (arg.startsWith('--')) {
      const typed = (arg.slice(2).split('=')[0] as string).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      for (const option of OPTIONS) {
        if (typed === option.flag || (option.kind === 'boolean' && typed === `no-${option.flag}`)) given.add(option.flag);
      }
    } else if (/^-[A-Za-z]/.test(arg)) {
      for (const letter of arg.slice(1).match(/^[A-Za-z]+/)?.[0] ?? '') {
        for (const option of OPTIONS) if ('alias' in option && option.alias === letter) given.add(option.flag);
      }
    }
  }
  return given;
}

/** A variable's text as the value its flag would have had, or a mistake that names the variable. */
function readValue(option: Option, name: string, text: string): string | boolean | string[] {
  switch (option.kind) {
    case 'boolean': {
      const value = readSwitch(text);
      if (value === undefined) throw new UserError(switchMistake(name, text));
      return value;
    }
    case 'list':
      // Keys and host names hold no spaces, and commas only between a key's windows (k:pro:10/s,600/m):
      // a comma separates unless a window (COUNT/UNIT) follows it.
      return text.split(/\s+|,(?!\d+\/)/).filter((item) => item !== '');
    case 'choice':
      if (!(option.choices as readonly string[]).includes(text))
        throw new UserError(`${name} takes ${option.choices.join(' or ')}, not ${JSON.stringify(text)}.`);
      return text;
    default:
      return text;
  }
}

/** The variable of the setting nearest to a name that is none, and whether it is near enough to be a typo. */
function nearest(name: string): { name: string; typo: boolean } {
  const typed = name.slice(ENV_PREFIX.length);
  let best = '';
  let distance = Number.POSITIVE_INFINITY;
  for (const option of OPTIONS) {
    const d = editDistance(typed, envName(option).slice(ENV_PREFIX.length));
    if (d < distance) [best, distance] = [envName(option), d];
  }
  return { name: best, typo: distance <= Math.max(1, Math.floor(typed.length / 3)) };
}

/**
 * Whether a variable is one Kubernetes injects for a Service (service links): a Service named
 * `petstore-mock` or `petstore-mock-redis` in the pod's namespace gives every new pod
 * `…_SERVICE_HOST`, `…_SERVICE_PORT[_NAME]`, `…_PORT=tcp://IP:PORT` and
 * `…_PORT_<n>_TCP[_PROTO|_PORT|_ADDR]`. Recognised by shape, since the Service's name is anyone's.
 */
export function isServiceLink(name: string, value: string | undefined): boolean {
  if (/_SERVICE_HOST$/.test(name) || /_SERVICE_PORT(_[A-Z0-9_]+)?$/.test(name)) return true;
  if (/_PORT_\d+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?$/.test(name)) return true;
  return /_PORT$/.test(name) && /^(tcp|udp|sctp):\/\//.test(value?.trim() ?? '');
}

/** The one line said for a `PETSTORE_MOCK_` variable that names no setting: it is ignored, not refused. */
export function unknownVariableWarning(name: string): string {
  const near = nearest(name);
  const hint = near.typo ? `did you mean ${near.name}?` : `the nearest setting is ${near.name}`;
  return `${name} is not a petstore-mock setting and is ignored (${hint}); each flag's variable is ${ENV_PREFIX} and the flag in capitals, listed in docs/cli.md.`;
}

/** The command line completed from the environment, and how each value was given, for messages. */
export interface ArgsWithSources {
  args: RawArgs;
  /** How a person gave a flag's value: `--port`, or `PETSTORE_MOCK_PORT` when it came from there. */
  label: (flag: string) => string;
  /** Lines to say on stderr: the unknown `PETSTORE_MOCK_` variables, which are ignored. */
  warnings: string[];
}

/**
 * Fills every option the command line (`argv`, as typed) does not give from its `PETSTORE_MOCK_`
 * variable. An empty variable counts as unset; a value its flag would not take is a `UserError`
 * naming the variable. Kubernetes' service-link variables are skipped, and any other unknown
 * `PETSTORE_MOCK_` variable is a warning: a CI job's own `PETSTORE_MOCK_URL` must not stop the mock.
 */
export function withEnvironment(parsed: RawArgs, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ArgsWithSources {
  const known = new Set(OPTIONS.map(envName));
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith(ENV_PREFIX) || known.has(name) || isServiceLink(name, env[name])) continue;
    warnings.push(unknownVariableWarning(name));
  }
  const given = flagsGiven(argv);
  const args: Record<string, unknown> = { ...parsed };
  const fromEnv = new Map<string, string>();
  for (const option of OPTIONS) {
    const name = envName(option);
    const text = env[name]?.trim();
    if (text === undefined || given.has(option.flag) || isServiceLink(name, text)) continue;
    // A token that is set but blank is a secret that did not arrive (a CI secret not defined):
    // taken as unset, it would start the admin API open, so it goes on to be refused as the flag's is.
    if (text === '' && option.flag !== 'admin-token') continue;
    args[option.key] = readValue(option, name, text);
    fromEnv.set(option.flag, name);
  }
  const label = (flag: string): string => fromEnv.get(flag) ?? `--${flag}`;
  return { args: args as RawArgs, label, warnings };
}
