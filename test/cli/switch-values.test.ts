import { describe, expect, it } from 'vitest';
import { normaliseSwitches, readSwitch, switchMistake } from '../../src/cli/switch-values.js';

describe('the values of a switch', () => {
  it.each([
    ['true', true],
    ['1', true],
    ['YES', true],
    ['on', true],
    ['false', false],
    ['0', false],
    ['No', false],
    ['off', false],
    ['maybe', undefined],
    ['', undefined],
    ['2', undefined],
  ] as const)('reads %j as %s', (text, value) => {
    expect(readSwitch(text)).toBe(value);
  });

  it('refuses another value in one line that names every value taken', () => {
    expect(switchMistake('--quiet', 'maybe')).toBe('--quiet takes true, 1, yes or on to turn it on, false, 0, no or off to turn it off, not "maybe".');
  });

  it.each([
    [
      ['--quiet=yes', '--port', '0'],
      ['--quiet', '--port', '0'],
    ],
    [['--watch=off'], ['--no-watch']],
    [['--readyJson=1'], ['--ready-json']],
    [
      ['--watch', 'off', '--quiet'],
      ['--no-watch', '--quiet'],
    ],
    [['--quiet', 'true'], ['--quiet']],
    [
      ['--quiet', 'scenarios'],
      ['--quiet', 'scenarios'],
    ],
    [
      ['--port=1', '--scenario', 'ban'],
      ['--port=1', '--scenario', 'ban'],
    ],
    [
      ['--', '--quiet=maybe'],
      ['--', '--quiet=maybe'],
    ],
  ])('writes %j as %j for the parser', (argv, expected) => {
    expect(normaliseSwitches(argv)).toEqual({ argv: expected });
  });

  it.each([
    [['--quiet=maybe'], '--quiet takes true, 1, yes or on to turn it on, false, 0, no or off to turn it off, not "maybe".'],
    [['--port', '0', '--watch='], '--watch takes true, 1, yes or on to turn it on, false, 0, no or off to turn it off, not "".'],
  ])('refuses %j', (argv, mistake) => {
    expect(normaliseSwitches(argv).mistake).toBe(mistake);
  });
});
