import type { Argv } from 'yargs';
import { VERSION } from './messages.js';
import { OPTIONS, choiceMistake, defaultValue, isChoice, type Option, type RawArgs } from './options.js';
import { UsageError, givenOnce, startFromArgs } from './start.js';
import { usageMistake } from './usage-mistakes.js';
import { normaliseSwitches } from './switch-values.js';
import { runVerifyCommand, verifyOptions } from './verify-command.js';
import { auditOptions, runAuditCommand } from './audit-command.js';

/**
 * A value a choice option does not take, found while yargs parsed: yargs hands the error of a
 * `coerce` on as its own, so the original is kept here to be reported as it is.
 */
let choiceError: UsageError | undefined;

/** The server options declared to yargs from the one option table (options.ts). */
export function serverOptions<T>(y: Argv<T>): Argv<T> {
  let result = y;
  for (const option of OPTIONS) {
    result = result.option(option.flag, yargsOption(option));
    // Declared a string as well, so the text reaches the start-up checks as typed (yargs would
    // read "1e3" as 1000); the number type is for the help.
    if (option.kind === 'number') result = result.number(option.flag);
  }
  return result;
}

function yargsOption(option: Option) {
  const common = { describe: option.describe, ...('alias' in option ? { alias: option.alias } : {}) };
  // A flag that takes a value and is given none is a mistake, not its default.
  const valued = { ...common, requiresArg: true };
  switch (option.kind) {
    case 'boolean':
      return { ...common, type: 'boolean' as const, default: false };
    case 'list':
      return { ...valued, type: 'string' as const, array: true, default: [] as string[] };
    case 'choice':
      return {
        ...valued,
        choices: option.choices,
        default: option.default,
        // Checked here, before yargs' own choice check, for one line that names the values.
        coerce: (value: unknown) => {
          for (const v of Array.isArray(value) ? value : [value]) {
            if (!isChoice(option, String(v))) {
              choiceError = new UsageError(choiceMistake(option, String(v)));
              throw choiceError;
            }
          }
          return value;
        },
      };
    default:
      // A number's default is shown as a number: [default: 4010], not "4010".
      return {
        ...valued,
        type: 'string' as const,
        ...('default' in option ? { default: option.default, defaultDescription: option.kind === 'number' ? option.default : undefined } : {}),
      };
  }
}

/** What yargs parsed, in the shape both parsers share. */
export function toRawArgs(argv: Record<string, unknown>): RawArgs {
  const args: Record<string, unknown> = {};
  for (const option of OPTIONS) {
    const value = argv[option.flag] ?? defaultValue(option);
    args[option.key] = option.kind === 'list' ? (value as unknown[]).map(String) : givenOnce(option.flag, value);
  }
  return args as RawArgs;
}

const EXAMPLES: readonly (readonly [string, string])[] = [
  ['', 'Serve on http://127.0.0.1:4010/v1 with 50 seeded animals'],
  [' --port 0 --ready-json', 'Take a free port and print one JSON line when ready (for CI)'],
  [' --scenario ban', 'Replay the temporary-ban scenario'],
  [' --scenario my-scenario.yaml --watch', 'Replay a scenario file, reloading it on every save'],
  [' --key ci-key:enterprise:100000:10000000', 'Add a key with custom limits'],
  [' --fixtures db.json', 'Serve the animals of a json-server db.json'],
  [' verify "$URL" --key "$KEY"', 'Check a deployment (staging, say) against the specification'],
  [' --state redis://127.0.0.1:6379/0', 'One replica of a deployment sharing its state in Redis'],
  [' state clear --state redis://127.0.0.1:6379/0', 'Remove that deployment from Redis, so new flags start a new world'],
];
/** The help's width is at least this: the longest example command, indented, on one line. */
const WIDEST_EXAMPLE = Math.max(...EXAMPLES.map(([command]) => `    petstore-mock${command}`.length)) + 1;

/**
 * The examples of --help, each command on a line of its own under what it does: yargs' own two
 * columns broke a long command in two, and a command is copied whole.
 */
function examples(): string {
  return ['Examples:', ...EXAMPLES.flatMap(([command, what]) => [`  ${what}:`, `    $0${command}`])].join('\n');
}

/** Runs the full yargs command line: help, version, the `scenarios` subcommand and its errors. */
export async function runYargs(args: readonly string[]): Promise<void> {
  choiceError = undefined;
  const switches = normaliseSwitches(args);
  if (switches.mistake !== undefined) throw new UsageError(switches.mistake);
  // yargs is an ES module only: imported, not required, by the CommonJS build of the CLI.
  const { default: yargs } = await import('yargs');
  await yargs(switches.argv)
    .scriptName('petstore-mock')
    .usage('$0 [options]\n\nA local mock of the Animal Store API: seeded animals, bearer keys, plan rate limits, bans and scenarios.')
    .command('scenarios', 'List the shipped scenarios, one line each', {}, async () => {
      const { shippedScenarios } = await import('../files/scenario-files.js');
      const list = shippedScenarios();
      const width = Math.max(...list.map((s) => s.name.length));
      process.stdout.write(list.map((s) => `${s.name.padEnd(width)}  ${s.description}`).join('\n') + '\n');
    })
    .command('verify [base-url]', 'Check a deployment of the API against the specification (docs/verify.md)', verifyOptions, runVerifyCommand)
    .command('audit [origin]', "Judge a running mock's client audit; exit 1 on an error finding (docs/audit.md)", auditOptions, runAuditCommand)
    .command(
      'state <action>',
      'Manage a replicated deployment in Redis: `state clear --state URL [--state-prefix NAME]` removes it',
      (y) =>
        y
          .positional('action', { choices: ['clear'] as const, describe: 'clear: remove the deployment' })
          .option('state', { type: 'string', requiresArg: true, describe: 'The Redis that holds it: redis://HOST:PORT/DB' })
          .option('state-prefix', { type: 'string', requiresArg: true, describe: 'Its key prefix (default petstore-mock)' })
          .option('force', { type: 'boolean', default: false, describe: 'Remove it even while replicas keep it alive' }),
      async (argv) => {
        const { stateClear } = await import('./state-command.js');
        await stateClear({ state: argv.state, statePrefix: argv['state-prefix'], force: argv.force });
      },
    )
    .command('$0', 'Start the mock server', serverOptions, async (argv) => {
      await startFromArgs(toRawArgs(argv), args);
    })
    .epilogue(examples())
    .strict()
    .version(VERSION)
    .help()
    .alias('help', 'h')
    // Never narrower than the longest example, so no line break falls inside a command.
    .wrap(Math.max(WIDEST_EXAMPLE, Math.min(110, process.stdout.columns || 100)))
    .fail((message, error) => {
      if (choiceError) throw choiceError;
      // yargs' own complaints (an unknown flag, a missing value) come as a YError or a message;
      // anything else is a failure of the command itself.
      if (error && error.name !== 'YError') throw error;
      throw new UsageError(usageMistake(error?.message ?? message ?? '', args));
    })
    .parseAsync();
}
