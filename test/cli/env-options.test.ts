import { describe, expect, it } from 'vitest';
import { envName, flagsGiven, isServiceLink, withEnvironment } from '../../src/cli/env-options.js';
import { defaultArgs, parseSimpleArgs, type RawArgs } from '../../src/cli/fast-args.js';
import { OPTIONS, type Option } from '../../src/cli/options.js';

/** A value each kind of option takes, as a variable's text and as the flags that say the same. */
function sample(option: Option): { text: string; argv: string[] } {
  switch (option.kind) {
    case 'boolean':
      return { text: 'true', argv: [`--${option.flag}`] };
    case 'choice': {
      const last = option.choices[option.choices.length - 1] as string;
      return { text: last, argv: [`--${option.flag}`, last] };
    }
    case 'number':
      return { text: '17', argv: [`--${option.flag}`, '17'] };
    case 'list':
      return { text: 'a:pro, b:free c:pro', argv: [`--${option.flag}`, 'a:pro', `--${option.flag}`, 'b:free', `--${option.flag}`, 'c:pro'] };
    default:
      return { text: `${option.flag}-value`, argv: [`--${option.flag}`, `${option.flag}-value`] };
  }
}

function fromEnv(env: Record<string, string>, argv: string[] = []): RawArgs {
  return withEnvironment(parseSimpleArgs(argv) ?? defaultArgs(), argv, env).args;
}

describe('environment variables for the flags', () => {
  it('names each flag PETSTORE_MOCK_ and the flag in capitals with _ for -', () => {
    const names = Object.fromEntries(OPTIONS.map((o) => [o.flag, envName(o)]));
    expect(names).toMatchObject({ port: 'PETSTORE_MOCK_PORT', scenario: 'PETSTORE_MOCK_SCENARIO', 'allow-host': 'PETSTORE_MOCK_ALLOW_HOST' });
    for (const option of OPTIONS) expect(envName(option)).toMatch(/^PETSTORE_MOCK_[A-Z_]+$/);
  });

  it.each(OPTIONS.map((o) => [envName(o), o] as const))('%s reads as its flag does', (name, option) => {
    const { text, argv } = sample(option);
    expect(fromEnv({ [name]: text })).toEqual(parseSimpleArgs(argv));
  });

  it('reads every variable at once as the command line with every flag', () => {
    const env = Object.fromEntries(OPTIONS.map((o) => [envName(o), sample(o).text]));
    expect(fromEnv(env)).toEqual(parseSimpleArgs(OPTIONS.flatMap((o) => sample(o).argv)));
  });

  it('lets a flag win over its variable, lists included, whatever form the flag takes', () => {
    const env = { PETSTORE_MOCK_PORT: '5000', PETSTORE_MOCK_KEY: 'env-key:pro', PETSTORE_MOCK_QUIET: 'true', PETSTORE_MOCK_SEED: '3' };
    const args = fromEnv(env, ['--port', '0', '--key', 'flag-key:free']);
    expect(args).toMatchObject({ port: '0', key: ['flag-key:free'], quiet: true, seed: '3' });
    expect([...flagsGiven(['-p0', '--allowHost', 'x', '--no-quiet', '--seed=4', '--', '--pets'])].sort()).toEqual(['allow-host', 'port', 'quiet', 'seed']);
  });

  it.each([
    ['ci-key:enterprise:100000:1000000,other:free', ['ci-key:enterprise:100000:1000000', 'other:free']],
    ['burst:pro:10/s,600/m,100000/d', ['burst:pro:10/s,600/m,100000/d']],
    ['burst:pro:10/s,600/m other:free,third:pro:5/h', ['burst:pro:10/s,600/m', 'other:free', 'third:pro:5/h']],
    ['a:pro:1/s, b:free', ['a:pro:1/s', 'b:free']],
  ])('PETSTORE_MOCK_KEY=%j reads as the keys %j: a comma followed by a window continues the windows', (text, keys) => {
    expect(fromEnv({ PETSTORE_MOCK_KEY: text }).key).toEqual(keys);
  });

  it('takes booleans as true/false, 1/0, yes/no, on/off and an empty variable as unset', () => {
    for (const [text, value] of [
      ['1', true],
      ['YES', true],
      ['on', true],
      ['0', false],
      ['false', false],
      ['off', false],
    ] as const)
      expect(fromEnv({ PETSTORE_MOCK_WATCH: text }).watch).toBe(value);
    expect(fromEnv({ PETSTORE_MOCK_PORT: '', PETSTORE_MOCK_KEY: ' ' })).toEqual(defaultArgs());
  });

  it.each([
    [
      { PETSTORE_MOCK_QUIET: 'maybe' },
      'petstore-mock: PETSTORE_MOCK_QUIET takes true, 1, yes or on to turn it on, false, 0, no or off to turn it off, not "maybe".',
    ],
    [{ PETSTORE_MOCK_LOG_FORMAT: 'xml' }, 'petstore-mock: PETSTORE_MOCK_LOG_FORMAT takes pretty or json, not "xml".'],
  ])('refuses %j in one line that names the variable', (env, message) => {
    expect(() => fromEnv(env)).toThrow(message);
  });

  it.each([
    [
      'PETSTORE_MOCK_PROT',
      "PETSTORE_MOCK_PROT is not a petstore-mock setting and is ignored (did you mean PETSTORE_MOCK_PORT?); each flag's variable is PETSTORE_MOCK_ and the flag in capitals, listed in docs/cli.md.",
    ],
    [
      'PETSTORE_MOCK_URL',
      "PETSTORE_MOCK_URL is not a petstore-mock setting and is ignored (the nearest setting is PETSTORE_MOCK_PORT); each flag's variable is PETSTORE_MOCK_ and the flag in capitals, listed in docs/cli.md.",
    ],
  ])('warns of the unknown %s, naming the nearest setting, and reads the rest', (name, warning) => {
    const { args, warnings } = withEnvironment(defaultArgs(), [], { [name]: 'http://127.0.0.1:4010/v1', PETSTORE_MOCK_SEED: '7' });
    expect(warnings).toEqual([warning]);
    expect(args).toEqual({ ...defaultArgs(), seed: '7' });
  });

  // What a Service named petstore-mock (ports 4010 "http" and 9000) and one named
  // petstore-mock-redis put in every pod of the namespace created after them.
  const serviceLinks = {
    PETSTORE_MOCK_SERVICE_HOST: '10.96.0.12',
    PETSTORE_MOCK_SERVICE_PORT: '4010',
    PETSTORE_MOCK_SERVICE_PORT_HTTP: '4010',
    PETSTORE_MOCK_PORT: 'tcp://10.96.0.12:4010',
    PETSTORE_MOCK_PORT_4010_TCP: 'tcp://10.96.0.12:4010',
    PETSTORE_MOCK_PORT_4010_TCP_PROTO: 'tcp',
    PETSTORE_MOCK_PORT_4010_TCP_PORT: '4010',
    PETSTORE_MOCK_PORT_4010_TCP_ADDR: '10.96.0.12',
    PETSTORE_MOCK_PORT_9000_UDP: 'udp://10.96.0.12:9000',
    PETSTORE_MOCK_REDIS_SERVICE_HOST: '10.96.0.13',
    PETSTORE_MOCK_REDIS_SERVICE_PORT: '6379',
    PETSTORE_MOCK_REDIS_PORT: 'tcp://10.96.0.13:6379',
    PETSTORE_MOCK_REDIS_PORT_6379_TCP: 'tcp://10.96.0.13:6379',
    PETSTORE_MOCK_REDIS_PORT_6379_TCP_PROTO: 'tcp',
    PETSTORE_MOCK_REDIS_PORT_6379_TCP_PORT: '6379',
    PETSTORE_MOCK_REDIS_PORT_6379_TCP_ADDR: '10.96.0.13',
  };

  it.each(Object.entries(serviceLinks))('ignores the service link %s=%s without a word', (name, value) => {
    expect(isServiceLink(name, value)).toBe(true);
    expect(withEnvironment(defaultArgs(), [], { [name]: value })).toMatchObject({ args: defaultArgs(), warnings: [] });
  });

  it.each([
    ['PETSTORE_MOCK_PORT', '4011'],
    ['PETSTORE_MOCK_PORT', 'http://10.96.0.12:4010'],
    ['PETSTORE_MOCK_STATE', 'tcp://10.96.0.13:6379'],
    ['PETSTORE_MOCK_PORT_4010', 'tcp://10.96.0.12:4010'],
  ])('does not take %s=%s for a service link', (name, value) => {
    expect(isServiceLink(name, value)).toBe(false);
  });

  it('reads the settings beside every service link, the port staying its default', () => {
    const { args, warnings } = withEnvironment(defaultArgs(), [], { ...serviceLinks, PETSTORE_MOCK_HOST: '0.0.0.0' });
    expect(warnings).toEqual([]);
    expect(args).toEqual({ ...defaultArgs(), host: '0.0.0.0' });
  });

  it.each([' ', ''])('passes a blank admin token (%j) on to be refused, rather than leaving the admin API open', (text) => {
    const { args, label } = withEnvironment(defaultArgs(), [], { PETSTORE_MOCK_ADMIN_TOKEN: text });
    expect(args.adminToken).toBe('');
    expect(label('admin-token')).toBe('PETSTORE_MOCK_ADMIN_TOKEN');
  });

  it('labels a value by how it was given, for the start-up checks', () => {
    const { label } = withEnvironment(defaultArgs(), ['--seed', '1'], { PETSTORE_MOCK_PORT: 'x', PETSTORE_MOCK_SEED: '2' });
    expect([label('port'), label('seed'), label('pets')]).toEqual(['PETSTORE_MOCK_PORT', '--seed', '--pets']);
  });
});
