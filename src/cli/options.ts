// The command line's options, declared once. The fast parser (fast-args.ts) and the yargs
// definition (yargs-args.ts) are both built from this table, so a flag cannot exist in one and
// not the other, and the help lists exactly what the fast path accepts.

/**
 * How a flag's value is read. Every value stays the text that was typed (the start-up checks
 * convert and range-check it, the same for both parsers); `number` only makes help say [number].
 */
export type OptionKind = 'text' | 'number' | 'boolean' | 'list' | 'choice';

interface OptionSpec {
  /** The long flag without dashes, as typed: `--admin-token`. */
  readonly flag: string;
  /** The property of `RawArgs` it fills. */
  readonly key: string;
  readonly alias?: string;
  readonly kind: OptionKind;
  readonly choices?: readonly string[];
  readonly default?: string;
  readonly describe: string;
}

export const OPTIONS = [
  { flag: 'port', key: 'port', alias: 'p', kind: 'number', default: '4010', describe: 'Port to listen on; 0 takes a free port' },
  { flag: 'host', key: 'host', kind: 'text', default: '127.0.0.1', describe: 'Interface to listen on' },
  { flag: 'seed', key: 'seed', kind: 'number', describe: 'Seed for the generated animals (fixed default: 42)' },
  { flag: 'pets', key: 'pets', kind: 'number', describe: 'How many animals to generate (default 50)' },
  { flag: 'fixtures', key: 'fixtures', kind: 'text', describe: 'Load animals from a JSON array or a json-server db.json' },
  { flag: 'scenario', key: 'scenario', kind: 'text', describe: 'A shipped scenario name or a scenario file (.yaml/.json)' },
  { flag: 'key', key: 'key', kind: 'list', describe: 'Extra key KEY:PLAN[:10/s,600/m,…] or KEY:PLAN:PER_MINUTE:PER_DAY (repeatable)' },
  {
    flag: 'allow-host',
    key: 'allowHost',
    kind: 'list',
    describe: 'Another host name the admin API answers to, besides loopback names and --host (repeatable)',
  },
  { flag: 'admin-token', key: 'adminToken', kind: 'text', describe: 'Require this token on /__admin calls (Authorization: Bearer, X-Admin-Token or ?token=)' },
  { flag: 'log-format', key: 'logFormat', kind: 'choice', choices: ['pretty', 'json'], default: 'pretty', describe: 'Request log format' },
  { flag: 'quiet', key: 'quiet', kind: 'boolean', describe: 'Print only the ready line, no banner or request log' },
  { flag: 'ready-json', key: 'readyJson', kind: 'boolean', describe: 'Print one JSON line with URL, keys and scenario when ready' },
  { flag: 'watch', key: 'watch', kind: 'boolean', describe: 'Reload scenario files and fixtures when they change' },
  {
    flag: 'lame-duck-time',
    key: 'lameDuckTime',
    kind: 'number',
    default: '3',
    describe: 'Seconds to keep answering on SIGTERM, /__admin/health saying 503, before the drain',
  },
  {
    flag: 'drain-time',
    key: 'drainTime',
    kind: 'number',
    default: '5',
    describe: 'Seconds to let answers in flight finish on SIGTERM/SIGINT before cutting them',
  },
  { flag: 'import', key: 'import', kind: 'text', describe: 'Start the default session from a snapshot file (GET /__admin/snapshot)' },
  {
    flag: 'export-on-exit',
    key: 'exportOnExit',
    kind: 'text',
    describe: "Write the default session's snapshot to this file on SIGTERM/SIGINT (atomically)",
  },
  {
    flag: 'profile',
    key: 'profile',
    kind: 'text',
    describe: "Answer with a deployment's latency and limits, from a profile file (verify --profile)",
  },
  { flag: 'state', key: 'state', kind: 'text', describe: 'Share sessions between instances in Redis: redis://HOST:PORT/DB' },
  { flag: 'state-prefix', key: 'statePrefix', kind: 'text', describe: 'Key prefix of this deployment in Redis (default petstore-mock)' },
] as const satisfies readonly OptionSpec[];

export type Option = (typeof OPTIONS)[number];

type ValueOf<O extends Option> = O extends { kind: 'boolean' }
  ? boolean
  : O extends { kind: 'list' }
    ? string[]
    : O extends { kind: 'choice'; choices: readonly (infer C)[] }
      ? C
      : O extends { default: string }
        ? string
        : string | undefined;

/**
 * The command line as both parsers give it, before it is checked and converted: every value is
 * the text that was typed; booleans are flags; `key` is every `--key` in order.
 */
export type RawArgs = { [O in Option as O['key']]: ValueOf<O> };

/** The value a flag has when it is not given. */
export function defaultValue(option: Option): string | boolean | string[] | undefined {
  if (option.kind === 'boolean') return false;
  if (option.kind === 'list') return [];
  return 'default' in option ? option.default : undefined;
}

/** The defaults of every option, so both parsers start from the same values. */
export function defaultArgs(): RawArgs {
  const args: Record<string, unknown> = {};
  for (const option of OPTIONS) args[option.key] = defaultValue(option);
  return args as RawArgs;
}

/** Whether `value` is one of a choice option's values. */
export function isChoice(option: Option, value: string): boolean {
  return option.kind !== 'choice' || (option.choices as readonly string[]).includes(value);
}

/** The one line for a value a choice option does not take. */
export function choiceMistake(option: Option, value: string): string {
  const choices = 'choices' in option ? option.choices.join(' or ') : '';
  return `--${option.flag} takes ${choices}, not ${JSON.stringify(value)}.`;
}
