import yargs, { type Argv } from 'yargs';
import type { RawArgs } from './fast-args.js';
import { VERSION, UsageError, fail, startFromArgs } from './start.js';

/** The server options as yargs declares them; the fast parser in cli-args.ts must agree with it. */
export function serverOptions<T>(y: Argv<T>) {
  return y
    .option('port', { alias: 'p', type: 'string', default: '4010', describe: 'Port to listen on; 0 takes a free port' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Interface to listen on' })
    .option('seed', { type: 'string', describe: 'Seed for the generated animals (fixed default: 42)' })
    .option('pets', { type: 'string', describe: 'How many animals to generate (default 50)' })
    .option('fixtures', { type: 'string', describe: 'Load animals from a JSON array or a json-server db.json' })
    .option('scenario', { type: 'string', describe: 'A shipped scenario name or a scenario file (.yaml/.json)' })
    .option('key', { type: 'string', array: true, default: [] as string[], describe: 'Extra key KEY:PLAN[:PER_MINUTE:PER_DAY] (repeatable)' })
    .option('allow-host', { type: 'string', array: true, default: [] as string[], describe: 'Another host name the admin API answers to, besides loopback names and --host (repeatable)' })
    .option('admin-token', { type: 'string', describe: 'Require this bearer token on /__admin calls' })
    .option('log-format', { choices: ['pretty', 'json'] as const, default: 'pretty' as const, describe: 'Request log format' })
    .option('quiet', { type: 'boolean', default: false, describe: 'Print only the ready line, no banner or request log' })
    .option('ready-json', { type: 'boolean', default: false, describe: 'Print one JSON line with URL, keys and scenario when ready' })
    .option('state', { type: 'string', describe: 'Share sessions between instances in Redis: redis://HOST:PORT/DB' })
    .option('state-prefix', { type: 'string', describe: 'Key prefix of this deployment in Redis (default petstore-mock)' });
}

/**
 * A flag that takes one value: yargs makes an array of a repeated one, which must not reach the
 * server as `--host a,b` or a listen on every interface.
 */
function once<T>(name: string, value: T | T[]): T {
  if (Array.isArray(value)) throw new UsageError(`--${name} was given ${value.length} times; give it once.`);
  return value;
}

/** What yargs parsed, in the shape both parsers share. */
export function toRawArgs(argv: Awaited<ReturnType<typeof serverOptions>['argv']>): RawArgs {
  return {
    port: once('port', argv.port),
    host: once('host', argv.host),
    seed: once('seed', argv.seed),
    pets: once('pets', argv.pets),
    fixtures: once('fixtures', argv.fixtures),
    scenario: once('scenario', argv.scenario),
    key: argv.key.map(String),
    allowHost: argv['allow-host'].map(String),
    adminToken: once('admin-token', argv['admin-token']),
    logFormat: once('log-format', argv['log-format']),
    quiet: once('quiet', argv.quiet),
    readyJson: once('ready-json', argv['ready-json']),
    state: once('state', argv.state),
    statePrefix: once('state-prefix', argv['state-prefix']),
  };
}

/** Runs the full yargs command line: help, version, the `scenarios` subcommand and its errors. */
export async function runYargs(args: readonly string[]): Promise<void> {
  await yargs([...args])
    .scriptName('petstore-mock')
    .usage('$0 [options]\n\nA local mock of the Animal Store API: seeded animals, bearer keys, plan rate limits, bans and scenarios.')
    .command('scenarios', 'List the shipped scenarios, one line each', {}, async () => {
      const { shippedScenarios } = await import('../files/scenario-files.js');
      const list = shippedScenarios();
      const width = Math.max(...list.map((s) => s.name.length));
      process.stdout.write(list.map((s) => `${s.name.padEnd(width)}  ${s.description}`).join('\n') + '\n');
    })
    .command('$0', 'Start the mock server', serverOptions, async (argv) => {
      await startFromArgs(toRawArgs(argv));
    })
    .example('$0', 'Serve on http://127.0.0.1:4010/v1 with 50 seeded animals')
    .example('$0 --port 0 --ready-json', 'Take a free port and print one JSON line when ready (for CI)')
    .example('$0 --scenario ban', 'Replay the temporary-ban scenario')
    .example('$0 --key ci-key:enterprise:100000:10000000', 'Add a key with custom limits')
    .example('$0 --fixtures db.json', 'Serve the animals of a json-server db.json')
    .example('$0 --state redis://127.0.0.1:6379/0', 'One replica of a deployment sharing its state in Redis')
    .strict()
    .version(VERSION)
    .help()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error) => {
      if (error && !(error instanceof UsageError)) throw error;
      fail(`${(error?.message ?? message).replace(/\n/g, ' ')} Run petstore-mock --help for the options.`);
    })
    .parseAsync();
}
