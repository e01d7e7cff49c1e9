import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/core/scenarios/scenario-compiler.js';
import { defaultSettings } from '../../src/core/state/session-settings.js';
import { BaseData } from '../../src/core/state/base-data.js';
import { ScenarioSource, loadScenario, scenariosDir, shippedScenarios, type ScenarioDefaults } from '../../src/files/scenario-files.js';
import { at } from '../support/checked.js';

const dir = scenariosDir();
const schema = JSON.parse(readFileSync(join(dir, 'scenario.schema.json'), 'utf8')) as object;
const files = readdirSync(dir).filter((f) => !f.endsWith('.schema.json'));
const host: ScenarioDefaults = { settings: defaultSettings(new BaseData([])), baseFor: (data) => new BaseData(data.pets ?? []) };

/** The names and one-line descriptions the issue asks to ship. */
const REQUIRED = ['default', 'empty-store', 'rate-limit-minute', 'rate-limit-day', 'ban', 'banned', 'revoked-key', 'removal-eve', 'removed', 'slow', 'flaky'];

describe('the shipped scenarios', () => {
  const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

  it.each(files)('%s validates against scenarios/scenario.schema.json and points editors at it', (file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const value: unknown = parse(text);
    expect(validate.errors ?? (validate(value) ? [] : validate.errors)).toEqual([]);
    expect(text.startsWith('# yaml-language-server: $schema=./scenario.schema.json\n')).toBe(true);
  });

  it('are all yaml files named as their scenarios, with the required ones present', () => {
    expect(files.every((f) => extname(f) === '.yaml')).toBe(true);
    const list = shippedScenarios();
    expect(list.map((s) => s.name)).toEqual(list.map((s) => basename(s.file, '.yaml')));
    expect(at(list, 0).name).toBe('default');
    expect(list.map((s) => s.name)).toEqual(expect.arrayContaining(REQUIRED));
    for (const s of list) expect(s.description.length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => basename(f, '.yaml')))('%s compiles against a plain server', (name) => {
    const settings = loadScenario(name).settings(host);
    expect(settings.scenario).toBe(name);
  });

  it('loads a shipped scenario by name and a file by path, the file named by its name key or its file name', () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-scenario-'));
    writeFileSync(join(folder, 'mine.json'), JSON.stringify({ description: 'from JSON', ban: { after: 1 } }));
    writeFileSync(join(folder, 'other.yml'), 'name: renamed\ndescription: from YAML\n');
    expect(loadScenario(join(folder, 'mine.json')).settings(host)).toEqual(
      expect.objectContaining({ scenario: 'mine', ban: { after: 1, durationMs: 300_000 } }),
    );
    expect(loadScenario(join(folder, 'other.yml')).name).toBe('renamed');
    expect(loadScenario('ban').file).toBe(join(dir, 'ban.yaml'));
  });

  it('reads data.fixtures relative to the scenario file', () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-fixtures-'));
    writeFileSync(join(folder, 'pets.json'), JSON.stringify({ pets: [{ id: 5, name: 'Nala', categoryId: 2, status: 'sold' }] }));
    writeFileSync(join(folder, 'with-data.yaml'), 'description: own animals\ndata:\n  fixtures: pets.json\n');
    const settings = loadScenario(join(folder, 'with-data.yaml')).settings(host);
    expect(settings.base.all).toEqual([{ id: 5, name: 'Nala', categoryId: 2, status: 'sold' }]);
  });
});

describe('a scenario file with a mistake', () => {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-broken-'));

  function errorOf(name: string, text: string): string {
    const file = join(folder, name);
    writeFileSync(file, text);
    try {
      ScenarioSource.read(file).settings(host);
    } catch (error) {
      expect(error).toBeInstanceOf(ScenarioError);
      return (error as Error).message;
    }
    throw new Error('no error');
  }

  it.each([
    ['yaml syntax', 'a.yaml', 'description: ok\nban: [1, 2\n', 3, 1, /^Flow sequence in block collection must be sufficiently indented and end with a \]$/],
    ['a duplicate key', 'b.yaml', 'description: ok\nban:\n  after: 1\n  after: 2\n', 4, 3, /^Map keys must be unique$/],
    [
      'an unknown top-level key',
      'c.yaml',
      'description: ok\nbanAfter: 3\n',
      2,
      1,
      /^unknown key "banAfter" in the scenario; the keys there are name, description, data, plans, keys, ban, usage, clock, deprecation, latency, profile, steps, repeat, chaos, operations, journal, retryAfterFormat$/,
    ],
    [
      'an unknown nested key',
      'd.yaml',
      'description: ok\nban:\n  after: 3\n  lenght: 2m\n',
      4,
      3,
      /^unknown key "lenght" in ban; the keys there are after, duration$/,
    ],
    ['a missing description', 'e.yaml', 'ban:\n  after: 3\n', 1, 1, /^the scenario needs the key "description"$/],
    ['a wrong type', 'f.yaml', 'description: ok\nban:\n  after: lots\n', 3, 3, /^ban\.after must be an integer$/],
    [
      'a bad duration',
      'g.yaml',
      'description: ok\nban:\n  duration: 5 minutes\n',
      3,
      3,
      /^ban\.duration is not valid: a duration such as "250ms", "90s", "1m30s", "2h" or "1d", or a number of milliseconds$/,
    ],
    [
      'a bad instant',
      'h.yaml',
      'description: ok\nclock:\n  start: tomorrow\n',
      3,
      3,
      /^clock\.start is not valid: an ISO-8601 instant with a zone, such as "2030-12-05T00:00:00Z"$/,
    ],
    [
      'a bad plan name',
      'i.yaml',
      'description: ok\nkeys:\n  - key: qa\n    plan: gold\n',
      4,
      5,
      /^keys\[0\]\.plan is "gold", which is not allowed there; use one of "free", "pro", "business", "enterprise"$/,
    ],
    [
      'a status a scenario cannot force',
      't.yaml',
      'description: ok\nsteps:\n  - answer: { status: 418 }\n',
      3,
      15,
      /^steps\[0\]\.answer\.status is 418, which is not allowed there; use one of 200, 201, 400, 401, 404, 410, 413, 415, 429, 500, 502, 503, 504$/,
    ],
    [
      'a fault that does not exist',
      'u.yaml',
      'description: ok\nsteps:\n  - answer: { fault: crash }\n',
      3,
      15,
      /^steps\[0\]\.answer\.fault is "crash", which is not allowed there; use one of "reset", "empty", "truncate"$/,
    ],
    [
      'a forced status with a bad Retry-After',
      'v.yaml',
      'description: ok\nsteps:\n  - answer: { status: 503, retryAfter: 0 }\n',
      3,
      28,
      /^steps\[0\]\.answer\.retryAfter must be >= 1$/,
    ],
    [
      'an unknown key beside a forced status',
      'x.yaml',
      'description: ok\nsteps:\n  - answer: { status: 503, foo: 1 }\n',
      3,
      28,
      /^unknown key "foo" in steps\[0\]\.answer; the keys there are status, code, message, retryAfter$/,
    ],
    [
      'an answer of no shape at all',
      'w.yaml',
      'description: ok\nsteps:\n  - answer: nrmal\n',
      3,
      5,
      /^steps\[0\]\.answer is not valid: "normal" for the usual answer, or a forced one/,
    ],
    [
      'an unknown key in usage',
      'j.yaml',
      'description: ok\nusage:\n  - key: nobody\n    minute: full\n',
      3,
      5,
      /^usage names the key "nobody", which this server does not have; add it under keys, or write "\*" for every key$/,
    ],
    [
      'a usage line for a window the key does not have',
      'j2.yaml',
      'description: ok\nusage:\n  - key: demo-free\n    hour: full\n',
      4,
      5,
      /^usage fills the hour of the key "demo-free", which has no hour window \(its windows are 60\/m, 1000\/d\); fill one of those, or give the key an hour window in its limits, such as "100\/h"$/,
    ],
    [
      'a usage line for a window of no unit',
      'j3.yaml',
      'description: ok\nusage:\n  - key: demo-free\n    week: 3\n',
      4,
      5,
      /^unknown key "week" in usage\[0\]; the keys there are key, second, minute, hour, day, bannedFor$/,
    ],
    [
      'a status the operation never answers',
      'k.yaml',
      'description: ok\nsteps:\n  - match: { operation: listPets }\n    answer: { status: 404 }\n',
      4,
      15,
      /^listPets never answers 404 \(its documented statuses are 200, 400, 401, 408, 414, 429, 431, 500, 502, 503, 504\); narrow the match or pick one of those$/,
    ],
    ['a JSON file', 'l.json', '{\n  "description": "ok",\n  "latency": { "min": "1s" }\n}\n', 3, 3, /^latency needs the key "max"$/],
    ['an empty file', 'm.yaml', '', 1, 1, /^the scenario must be an object$/],
    [
      'a day that does not exist',
      'q.yaml',
      'description: ok\ndeprecation:\n  removalAt: "2030-02-30T00:00:00Z"\n',
      3,
      3,
      /^"2030-02-30T00:00:00Z" is not an instant that exists; write one such as "2030-12-05T00:00:00Z"$/,
    ],
    [
      'a month that does not exist',
      'r.yaml',
      'description: ok\nclock:\n  start: "2030-13-05T00:00:00Z"\n',
      3,
      3,
      /^"2030-13-05T00:00:00Z" is not an instant that exists/,
    ],
    [
      'an hour that does not exist',
      's.yaml',
      'description: ok\nclock:\n  start: "2030-12-05T24:30Z"\n',
      3,
      3,
      /^"2030-12-05T24:30Z" is not an instant that exists/,
    ],
    [
      'a file name that is no scenario name',
      'My Test.yaml',
      'description: ok\n',
      1,
      1,
      /^the file name "My Test" is no scenario name \(lower-case letters, digits and -, as the admin API switches by it\); add "name: my-test" or rename the file$/,
    ],
    [
      'empty data with a count',
      'o.yaml',
      'description: ok\ndata:\n  empty: true\n  count: 3\n',
      3,
      3,
      /^data\.empty cannot go with count or fixtures; keep one of them$/,
    ],
    [
      'fixtures with a seed',
      'p.yaml',
      'description: ok\ndata:\n  seed: 1\n  fixtures: pets.json\n',
      4,
      3,
      /^data\.fixtures cannot go with seed or count; keep one of them$/,
    ],
    [
      'a YAML alias bomb',
      'bomb.yaml',
      'description: ok\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n',
      3,
      8,
      /^its aliases \(\*name\) expand to too many values \(an alias bomb\?\); write the values out, or use each anchor a few times only$/,
    ],
    [
      'an alias of no anchor',
      'alias.yaml',
      'description: ok\nban:\n  after: *three\n',
      3,
      10,
      /^the alias \*three names no anchor \(&three\) defined before it$/,
    ],
    ['fixtures that cannot be read', 'n.yaml', 'description: ok\ndata:\n  fixtures: nope.json\n', 3, 3, /^cannot read .*nope\.json \(no such file\)$/],
  ])('%s: names the file, line and column, and what is wrong', (_what, name, text, line, col, message) => {
    const text2 = errorOf(name, text);
    const prefix = `petstore-mock: ${join(folder, name)}:${line}:${col}: `;
    expect(text2.startsWith(prefix)).toBe(true);
    expect(text2.endsWith('; fix the file and try again.')).toBe(true);
    expect(text2.slice(prefix.length, -'; fix the file and try again.'.length)).toMatch(message);
    expect(text2).not.toContain('\n');
  });

  it.each([
    [
      'a unit that is none',
      'keys:\n  - { key: k, plan: pro, limits: ["10/w"] }\n',
      /^keys\[0\]\.limits\[0\] is not valid: a window such as "10\/s", "600\/m", "5000\/h" or "100000\/d"$/,
    ],
    ['a window of zero', 'keys:\n  - { key: k, plan: pro, limits: ["0/s"] }\n', /^keys\[0\]\.limits\[0\] is not valid: a window such as "10\/s"/],
    ['a unit given twice', 'keys:\n  - { key: k, plan: pro, limits: ["10/m", "20/m"] }\n', /^the unit "m" is given twice; give each window once$/],
    ['the same window twice', 'plans:\n  pro: { limits: ["10/m", "10/m"] }\n', /^the unit "m" is given twice; give each window once$/],
    ['no window', 'keys:\n  - { key: k, plan: pro, limits: [] }\n', /^keys\[0\]\.limits must NOT have fewer than 1 items$/],
    [
      'windows and perMinute',
      'plans:\n  pro: { perMinute: 5, limits: ["10/s"] }\n',
      /^limits lists every window; give the minute and the day there, not also as perMinute or perDay$/,
    ],
  ])('limits with %s are refused with the place and the reason', (_what, text, message) => {
    const error = errorOf('w.yaml', `description: ok\n${text}`);
    expect(error.slice(error.indexOf(': ', 'petstore-mock: '.length + folder.length) + 2, -'; fix the file and try again.'.length)).toMatch(message);
  });

  it('windows of seconds, hours and days load for a plan and a key, shortest first', () => {
    const file = join(folder, 'windows.yaml');
    writeFileSync(
      file,
      'description: ok\nplans:\n  pro: { limits: ["100/d", "10/s", "3/h"] }\nkeys:\n  - { key: burst, plan: free, limits: ["2/s", "50/m"] }\n',
    );
    const settings = ScenarioSource.read(file).settings(host);
    const shown = (key: string): string[] | undefined => settings.keys.find((k) => k.key === key)?.limits.map((w) => `${w.max}/${w.lengthMs}`);
    expect(shown('demo-pro')).toEqual(['10/1000', '3/3600000', '100/86400000']);
    expect(shown('burst')).toEqual(['2/1000', '50/60000']);
    expect(settings.keys.find((k) => k.key === 'burst')?.custom).toBe(true);
  });

  it('an unknown name lists the shipped ones', () => {
    expect(() => loadScenario('nope')).toThrow(
      `petstore-mock: unknown scenario "nope"; use one of ${shippedScenarios()
        .map((s) => s.name)
        .join(', ')}, or a path to a .yaml or .json scenario file (petstore-mock scenarios lists them).`,
    );
  });

  it('a name one slip away from a shipped one gets a "did you mean"', () => {
    expect(() => loadScenario('bann')).toThrow(
      `petstore-mock: unknown scenario "bann" (did you mean ban?); use one of ${shippedScenarios()
        .map((s) => s.name)
        .join(', ')}, or a path to a .yaml or .json scenario file (petstore-mock scenarios lists them).`,
    );
  });

  it('a missing file says so', () => {
    expect(() => loadScenario('./missing.yaml')).toThrow(
      'petstore-mock: cannot read the scenario file missing.yaml (no such file); check the path given to --scenario.',
    );
  });
});
