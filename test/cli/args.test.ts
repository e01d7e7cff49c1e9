import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { defaultArgs, parseSimpleArgs, type RawArgs } from '../../src/cli/fast-args.js';
import { serverOptions, toRawArgs } from '../../src/cli/yargs-args.js';

/** What the yargs definition of the CLI makes of a command line. */
function viaYargs(argv: string[]): RawArgs {
  return toRawArgs(serverOptions(yargs(argv)).strict().exitProcess(false).parseSync());
}

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
    expect(defaultArgs()).toMatchObject({ port: '4010', host: '127.0.0.1', logFormat: 'pretty', quiet: false, key: [] });
  });

  it.each([
    [['--help']],
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
