import { describe, expect, it } from 'vitest';
import { editDistance } from '../../src/core/near-name.js';
import { suggestion, usageMistake } from '../../src/cli/usage-mistakes.js';

describe('usage mistakes', () => {
  it.each([
    ['port', 'port', 0],
    ['prot', 'port', 1],
    ['quite', 'quiet', 1],
    ['seeds', 'seed', 1],
    ['kitten', 'sitting', 3],
  ])('editDistance(%s, %s) = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });

  it.each([
    ['--prot', '--port'],
    ['--quite', '--quiet'],
    ['--fixture', '--fixtures'],
    ['--admin-tokn', '--admin-token'],
    ['--log-fromat', '--log-format'],
    ['--wach', '--watch'],
    ['--readyjson', '--ready-json'],
    ['scenarioz', 'scenarios'],
    ['--nope', undefined],
    ['-x', undefined],
    ['extra', undefined],
  ])('%s suggests %s', (typed, near) => {
    expect(suggestion(typed)).toBe(near);
  });

  it.each([
    ['Unknown argument: prot', ['--prot', '1'], 'unknown option --prot (did you mean --port?); petstore-mock --help lists the options.'],
    ['Unknown argument: x', ['-x'], 'unknown option -x; petstore-mock --help lists the options.'],
    [
      'Unknown arguments: nope, quite',
      ['--nope', '--quite'],
      'unknown options --nope, --quite (did you mean --quiet?); petstore-mock --help lists the options.',
    ],
    ['Unknown argument: scenarioz', ['scenarioz'], 'unknown command scenarioz (did you mean scenarios?); petstore-mock --help lists the options.'],
    ['Unknown argument: fixture', ['--fixture=db.json'], 'unknown option --fixture (did you mean --fixtures?); petstore-mock --help lists the options.'],
    ['Not enough arguments following: port', ['--port'], '--port needs a value; petstore-mock --help lists the options.'],
    ['Something else:\n  in two lines.', [], 'something else: in two lines; petstore-mock --help lists the options.'],
  ])("yargs' %j for %j is one line: %s", (message, argv, line) => {
    const text = usageMistake(message, argv);
    expect(text).toBe(line);
    expect(text).not.toContain('\n');
  });
});
