import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError, named } from '../../src/core/errors.js';
import { FixtureError, parseFixtures } from '../../src/core/input/fixtures.js';
import { ScenarioError } from '../../src/core/scenarios/scenario-compiler.js';
import { KeySpecError, parseKeySpec } from '../../src/core/state/plans.js';
import { UsageError } from '../../src/cli/start.js';
import { ListenError } from '../../src/http/listen-failure.js';
import { loadScenario } from '../../src/files/scenario-files.js';
import { startMock } from '../../src/index.js';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the errors a person can fix', () => {
  it.each([
    ['FixtureError', FixtureError],
    ['KeySpecError', KeySpecError],
    ['ScenarioError', ScenarioError],
    ['UsageError', UsageError],
    ['ListenError', ListenError],
  ])('%s is a UserError named for itself', (name, Type) => {
    const error = Type === ListenError ? new ListenError('a reason.', 'EADDRINUSE') : new (Type as typeof UserError)('a reason.');
    expect(error).toBeInstanceOf(UserError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
  });

  it('its message names the tool once, for library callers; its reason does not', () => {
    const error = new UserError('--key "x" is not valid.');
    expect(error.message).toBe('petstore-mock: --key "x" is not valid.');
    expect(error.reason).toBe('--key "x" is not valid.');
    expect(named('x')).toBe('petstore-mock: x');
  });

  it.each([
    ['a key spec', () => parseKeySpec('nope')],
    ['fixtures', () => parseFixtures('[1]', 'my.json')],
    ['a scenario name', () => loadScenario('no-such-scenario')],
    ['a scenario file', () => loadScenario('missing/file.yaml')],
  ])('%s with a mistake throws a UserError whose message starts with the tool name exactly once', (_what, run) => {
    const error = thrown(run) as UserError;
    expect(error).toBeInstanceOf(UserError);
    expect(error.message.startsWith('petstore-mock: ')).toBe(true);
    expect(error.message.indexOf('petstore-mock: ', 1)).toBe(-1);
    expect(error.reason).toBe(error.message.slice('petstore-mock: '.length));
  });

  it("the library's clock mistakes are UserErrors too", async () => {
    const mock = await startMock();
    try {
      expect(thrown(() => mock.clock.advance('soon'))).toBeInstanceOf(UserError);
    } finally {
      await mock.close();
    }
  });

  it('no source file writes the "petstore-mock: " prefix into a message; named() adds it', () => {
    const offenders = sources('src').filter((file) => !file.endsWith(join('core', 'errors.ts')) && /['`"]petstore-mock: /.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
    const strippers = sources('src').filter((file) => /replace\(\/\^petstore-mock/.test(readFileSync(file, 'utf8')));
    expect(strippers).toEqual([]);
  });
});
