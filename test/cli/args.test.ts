import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { defaultArgs, parseSimpleArgs, type RawArgs } from '../../src/cli/fast-args.js';
import { OPTIONS, type Option } from '../../src/cli/options.js';
import { serverOptions, toRawArgs } from '../../src/cli/yargs-args.js';

/** What the yargs definition of the CLI makes of a command line. */
function viaYargs(argv: string[]): RawArgs {
  return toRawArgs(serverOptions(yargs(argv)).strict().exitProcess(false).parseSync());
}

/** The help text yargs prints for the server options. */
async function helpText(): Promise<string> {
  return serverOptions(yargs([])).wrap(200).getHelp();
}

/** A value each kind of option takes, to build command lines from the table alone. */
function sample(option: Option): string[] {
  switch (option.kind) {
    case 'boolean':
      return [`--${option.flag}`];
    case 'choice':
      return [`--${option.flag}`, option.choices[option.choices.length - 1] as string];
    case 'number':
      return [`--${option.flag}`, '17'];
    case 'list':
      return [`--${option.flag}`, 'a:pro', `--${option.flag}`, 'b:free'];
    default:
      return [`--${option.flag}`, `${option.flag}-value`];
  }
}

describe('the option table', () => {
  it('declares every flag and alias once', () => {
    const names = OPTIONS.flatMap((o) => ('alias' in o ? [o.flag, o.alias] : [o.flag]));
    expect(new Set(names).size).toBe(names.length);
    const keys = OPTIONS.map((o) => o.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(OPTIONS.map((o) => [o.flag, o] as const))('--%s reads the same through both parsers, alone and with every other flag', (_flag, option) => {
    const alone = sample(option);
    expect(parseSimpleArgs(alone)).toEqual(viaYargs(alone));
    if ('alias' in option) {
      const short = [`-${option.alias}`, ...alone.slice(1)];
      expect(parseSimpleArgs(short)).toEqual(viaYargs(short));
    }
  });

  it('a command line with every option reads the same through both parsers, and the fast one takes it', () => {
    const argv = OPTIONS.flatMap(sample);
    const fast = parseSimpleArgs(argv);
    expect(fast).toBeDefined();
    expect(fast).toEqual(viaYargs(argv));
  });

  it('the help lists every option with its type: numbers as [number], texts as [string]', async () => {
    const help = await helpText();
    for (const option of OPTIONS) {
      const line = help.split('\n').find((l) => l.includes(`--${option.flag} `));
      expect(line, `--${option.flag} in the help`).toBeDefined();
      const type = { number: '[number]', text: '[string]', boolean: '[boolean]', list: '[array]', choice: '[choices:' }[option.kind];
      expect(line).toContain(type);
      if ('alias' in option) expect(line).toContain(`-${option.alias},`);
    }
  });
});

describe('the fast argument parser', () => {
  it.each([
    [[]],
    [['--port', '0']],
    [['--port=0', '--quiet']],
    [['-p', '8080', '--host', 'localhost']],
    [['--seed', '007', '--pets', '1000000']],
    [['--fixtures', 'fixtures/db.json', '--scenario', 'ban']],
    [['--key', 'a:pro', '--key=b:enterprise:10:20', '--key', 'c:free']],
    [['--admin-token', 's3cret', '--log-format', 'json', '--ready-json']],
    [['--log-format=pretty', '--quiet', '--ready-json', '--port', '4011']],
    [['--port', 'abc']],
    [['--host', '0.0.0.0', '--seed', '1e3']],
    [['--watch', '--scenario', 'my.yaml']],
    [['--allow-host', 'mock.test', '--allow-host=192.168.1.5', '--host', '0.0.0.0']],
    [['--state', 'redis://127.0.0.1:6379/0', '--state-prefix', 'staging']],
    [['--state=rediss://:pw@cache:6380/2', '--port', '4011']],
  ])('reads %j exactly as yargs does', (argv) => {
    const fast = parseSimpleArgs(argv);
    expect(fast).toBeDefined();
    expect(fast).toEqual(viaYargs(argv));
  });

  it('gives the documented defaults for an empty command line', () => {
    expect(parseSimpleArgs([])).toEqual(defaultArgs());
    expect(defaultArgs()).toMatchObject({ port: '4010', host: '127.0.0.1', logFormat: 'pretty', quiet: false, watch: false, key: [] });
  });

  it.each([
    [['--help']],
    [['-h']],
    [['--version']],
    [['scenarios']],
    [['--nope']],
    [['--port']],
    [['--port', '1', '--port', '2']],
    [['--port=']],
    [['--port', '-1']],
    [['-p=1']],
    [['-p1']],
    [['--quiet', 'true']],
    [['--quiet=false']],
    [['--no-quiet']],
    [['--quiet', '--quiet']],
    [['--watch', '--watch']],
    [['--key', 'a:pro', 'b:pro']],
    [['--allow-host', 'a', 'b']],
    [['--allowHost', 'a']],
    [['--log-format', 'xml']],
    [['--logFormat', 'json']],
    [['--adminToken', 'x']],
    [['--', '--port', '1']],
    [['extra']],
  ])('leaves %j to yargs', (argv) => {
    expect(parseSimpleArgs(argv)).toBeUndefined();
  });
});
