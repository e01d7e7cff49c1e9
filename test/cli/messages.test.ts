import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  VERSION,
  banner,
  exposedHostWarning,
  launcherGoneLine,
  readyJsonLine,
  readyLogLine,
  readyLine,
  reloadFailedLine,
  reloadLine,
  startFailure,
  type ReadyInfo,
} from '../../src/cli/messages.js';
import { ScenarioError } from '../../src/core/scenarios/scenario-compiler.js';
import { KeySpecError } from '../../src/core/state/plans.js';
import { minuteDay, parseWindows } from '../../src/core/state/windows.js';

const info: ReadyInfo = {
  version: '9.9.9',
  url: 'http://127.0.0.1:4010/v1',
  origin: 'http://127.0.0.1:4010',
  port: 4010,
  keys: [
    { key: 'demo-free', plan: 'free', limits: minuteDay(60, 1000), revoked: true },
    { key: 'ci-secret-key', plan: 'enterprise', limits: minuteDay(100000, 1000000) },
    { key: 'burst-key', plan: 'enterprise', limits: parseWindows(['10/s', '600/m', '5000/h']) },
  ],
  scenario: 'ban',
  pid: 1234,
  adminProtected: false,
  watching: false,
};
const redact = (key: string): string => (key.startsWith('demo-') ? key : `${key.slice(0, 2)}…`);

describe('start-up messages', () => {
  it("the version is package.json's", () => {
    expect(VERSION).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
  });

  it('the banner: ready line, keys as shown, scenario, admin page, readiness URL, contract and a curl line', () => {
    expect(banner(info, redact)).toBe(
      [
        'petstore-mock 9.9.9 listening on http://127.0.0.1:4010/v1',
        '  keys      demo-free (free, 60/min, 1000/day, revoked)',
        '            ci… (enterprise, 100000/min, 1000000/day)',
        '            bu… (enterprise, 10/s, 600/min, 5000/h)',
        '  scenario  ban',
        '  admin     http://127.0.0.1:4010/__admin/',
        '  health    http://127.0.0.1:4010/__admin/health  (200 once ready: wait on this)',
        '  contract  http://127.0.0.1:4010/v1/openapi.json',
        '  try       curl -H "Authorization: Bearer demo-free" "http://127.0.0.1:4010/v1/pets?limit=5"',
        '',
        '',
      ].join('\n'),
    );
  });

  it('with --admin-token the admin line says the page asks for the token, and never prints it', () => {
    const text = banner({ ...info, adminProtected: true }, redact);
    expect(text).toContain('  admin     http://127.0.0.1:4010/__admin/  (asks for the --admin-token value)\n');
  });

  it('with --watch the scenario line says files reload', () => {
    expect(banner({ ...info, watching: true }, redact)).toContain('  scenario  ban  (--watch: files reload on change)\n');
  });

  it('the plain ready line is the URL line alone', () => {
    expect(readyLine(info)).toBe('petstore-mock 9.9.9 listening on http://127.0.0.1:4010/v1\n');
  });

  it('the --ready-json line: one JSON object with URL, admin page, readiness URL, keys whole and the pid', () => {
    const line = readyJsonLine(info);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trimEnd()).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({
      event: 'ready',
      url: 'http://127.0.0.1:4010/v1',
      origin: 'http://127.0.0.1:4010',
      port: 4010,
      admin: 'http://127.0.0.1:4010/__admin/',
      health: 'http://127.0.0.1:4010/__admin/health',
      keys: [
        { key: 'demo-free', plan: 'free', perMinute: 60, perDay: 1000, limits: ['60/m', '1000/d'], revoked: true },
        { key: 'ci-secret-key', plan: 'enterprise', perMinute: 100000, perDay: 1000000, limits: ['100000/m', '1000000/d'] },
        { key: 'burst-key', plan: 'enterprise', perMinute: 600, limits: ['10/s', '600/m', '5000/h'] },
      ],
      scenario: 'ban',
      pid: 1234,
    });
  });

  it("the JSON log ready event: the request lines' shape, the readiness URL, keys as the banner shows them", () => {
    const line = readyLogLine(info, redact);
    expect(line.trimEnd()).not.toContain('\n');
    const event = JSON.parse(line) as Record<string, unknown>;
    expect(event).toMatchObject({ level: 'info', msg: 'ready', event: 'ready', version: '9.9.9', health: 'http://127.0.0.1:4010/__admin/health', pid: 1234 });
    expect((event.keys as { key: string }[]).map((k) => k.key)).toEqual(['demo-free', 'ci…', 'bu…']);
    expect(line).not.toContain('ci-secret-key');
  });

  it.each([
    ['127.0.0.1', false, undefined],
    ['localhost', false, undefined],
    ['::1', false, undefined],
    [
      '0.0.0.0',
      false,
      'petstore-mock: listening on 0.0.0.0, so other machines can reach this mock and its public demo keys and its admin API (unprotected: add --admin-token); use --host 127.0.0.1 to keep it local.\n',
    ],
    [
      '0.0.0.0',
      true,
      'petstore-mock: listening on 0.0.0.0, so other machines can reach this mock and its public demo keys; use --host 127.0.0.1 to keep it local.\n',
    ],
  ])('host %s (admin protected: %s) warns %j', (host, protectedAdmin, warning) => {
    expect(exposedHostWarning(host, protectedAdmin)).toBe(warning);
  });

  it.each([
    [new KeySpecError('--key "x" is not valid.'), 'petstore-mock: --key "x" is not valid.\n'],
    [new ScenarioError('a.yaml:1:1: bad; fix the file and try again.'), 'petstore-mock: a.yaml:1:1: bad; fix the file and try again.\n'],
    [new Error('boom'), 'petstore-mock: failed to start: boom\n'],
    ['plain', 'petstore-mock: failed to start: plain\n'],
  ])('a failed start with %s prints one line: %j', (error, line) => {
    expect(startFailure(error)).toBe(line);
  });

  it('a reload names the files and the sessions restarted', () => {
    expect(reloadLine(['my.yaml'], ['default', 'w1'])).toBe('petstore-mock: reloaded my.yaml; restarted sessions default, w1.\n');
    expect(reloadLine(['db.json'], ['default'])).toBe('petstore-mock: reloaded db.json; restarted session default.\n');
    expect(reloadLine(['other.yaml'], [])).toBe('petstore-mock: reloaded other.yaml; no session uses it.\n');
    expect(reloadLine(['my.yaml'], [], ['default'])).toBe('petstore-mock: reloaded my.yaml; session default already runs this version.\n');
    expect(reloadLine(['db.json'], ['w1'], ['default', 'w2'])).toBe(
      'petstore-mock: reloaded db.json; restarted session w1; sessions default, w2 already run this version.\n',
    );
  });

  it('a reload with a mistake prints it and says the old version keeps running', () => {
    const error = new ScenarioError('my.yaml:3:3: unknown key "afer" in ban; fix the file and try again.');
    expect(reloadFailedLine(error)).toBe(
      'petstore-mock: my.yaml:3:3: unknown key "afer" in ban; fix the file and try again. The previous version keeps running.\n',
    );
  });

  it('a server whose npm launcher went away says why it stops', () => {
    expect(launcherGoneLine()).toBe('petstore-mock: the npm process that started this server has gone (npx or npm run was stopped); stopping too.\n');
  });
});
