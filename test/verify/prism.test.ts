// verify against Stoplight Prism serving the project's OpenAPI document: Prism answers every
// operation with the document's examples and placeholders, so it meets the shapes and nothing the
// document cannot say (which keys exist, what was stored, header values, a quota). verify must
// fail exactly those rules and pass the others: a change to a rule shows its false positives here.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/core/input/openapi.js';
import { verify } from '../../src/index.js';
import { freePort } from '../support/ports.js';
import { failedIds, passedIds, skippedIds } from './support.js';

const require = createRequire(import.meta.url);
/** Prism's own entry point, run by this node, so that the PID stopped is Prism's. */
const PRISM = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

let prism: ChildProcess;
let output = '';
let base = '';
let dir = '';

/** Polls until Prism answers a request (any status), or fails with what it printed. */
async function ready(url: string): Promise<void> {
  for (;;) {
    if (prism.exitCode !== null) throw new Error(`Prism exited with ${prism.exitCode}:\n${output}`);
    const answered = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'verify-prism-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(openapiDocument));
  const port = await freePort();
  prism = spawn(process.execPath, [PRISM, 'mock', '-h', '127.0.0.1', '-p', String(port), file], { stdio: ['ignore', 'pipe', 'pipe'] });
  prism.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  prism.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  // Prism mocks the paths as the document writes them, without the server's /v1.
  base = `http://127.0.0.1:${port}`;
  await ready(`${base}/pets`);
}, 60_000);

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((resolve) => prism.once('exit', resolve));
    prism.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** What Prism cannot meet, and why: the rules verify must fail. */
const PRISM_CANNOT = {
  'auth.invalid-key': 'it checks that a bearer token is there, not that a service issued it',
  'list.status-filter': 'it answers the same example whatever status is asked',
  'create.assigns-id': 'it answers the example, not the animal sent',
  'get.not-found': 'it cannot know which ids exist',
  'deprecation.headers': "its Deprecation, Sunset and Link are the schema's placeholders",
  'ratelimit.headers': 'its X-RateLimit-* are placeholders (0), with no quota behind them',
};

describe('verify against Prism serving the OpenAPI document', () => {
  it('fails exactly what Prism cannot meet, and passes the shape and behaviour rules it can', async () => {
    const report = await verify(base, { key: 'any-key-at-all' });
    expect(failedIds(report)).toEqual(Object.keys(PRISM_CANNOT));
    // error.shape passes on the examples the document gives each Error answer.
    expect(passedIds(report)).toEqual([
      'auth.required',
      'error.shape',
      'list.default-limit',
      'list.limit-bounds',
      'create.rejects-invalid',
      'get.found',
      'openapi.bodies',
    ]);
    expect(skippedIds(report)).toEqual(['deprecation.removal', 'ratelimit.retry-after', 'ratelimit.no-ban']);
    const message = (id: string): string | undefined => report.rules.find((r) => r.id === id)?.message;
    expect(message('ratelimit.headers')).toMatch(/X-RateLimit-Reset 0 is \d+ s in the past .*; X-RateLimit-Reset is a Unix timestamp in seconds/);
    expect(message('openapi.bodies')).toMatch(/^\d+ successful answers, each valid against the document$/);
  });

  it('with rateLimits also fails the quota, which Prism does not keep', async () => {
    const report = await verify(base, { key: 'any-key-at-all', rateLimits: true, readOnly: true });
    expect(failedIds(report)).toEqual([
      'auth.invalid-key',
      'list.status-filter',
      'get.not-found',
      'deprecation.headers',
      'ratelimit.headers',
      'ratelimit.retry-after',
    ]);
    expect(report.rules.find((r) => r.id === 'ratelimit.retry-after')?.message).toMatch(
      /^sent 1 request after X-RateLimit-Remaining said 0 and none was refused with 429/,
    );
    expect(skippedIds(report)).toEqual(['create.assigns-id', 'create.rejects-invalid', 'deprecation.removal', 'ratelimit.no-ban']);
  });
});

/** Where Prism answers otherwise than the mock, by behaviour and request, and why. */
const PRISM_DIFFERS: [behaviour: string, request: string, why: string][] = [
  ['header.x-ratelimit-limit', 'GET /pets?limit=100', 'its X-RateLimit-* are placeholders (0), with no quota behind them'],
  ['header.x-ratelimit-remaining', 'GET /pets?limit=100', 'the same placeholder'],
  ['header.x-ratelimit-reset', 'GET /pets?limit=100', 'the same placeholder'],
  ['header.www-authenticate', 'GET /pets', 'its challenge is the schema\'s placeholder "string"'],
  ['header.www-authenticate', 'POST /pets', 'the same placeholder'],
  ['header.deprecation', 'GET /pets/1', 'the placeholder "true", not an RFC 9745 date'],
  ['header.sunset', 'GET /pets/1', 'the placeholder "string"'],
  ['header.link', 'GET /pets/1', 'the placeholder "string"'],
  ['header.www-authenticate', 'GET /pets/1', 'the same placeholder'],
  ['status', 'GET /pets', 'it takes a key no service issued (200, not 401)'],
  ['status', 'POST /pets', 'the same, for a create'],
  ['status', 'GET /pets/1', 'the same, for a get'],
  ['list.limit', 'GET /pets?status=pending&limit=100', 'it answers the same example whatever status is asked'],
  ['list.limit', 'GET /pets?status=sold&limit=100', 'the same'],
  ['create.echo', 'POST /pets', 'it answers the example, not the animal sent'],
  ['status', 'GET /pets/9223372036854775807', 'it refuses the largest int64 id as a bad parameter (400) where the mock looks it up (404)'],
];

describe('verify --compare-mock against Prism', () => {
  it('lists every behaviour in which Prism answers otherwise than the mock, each named once', async () => {
    const report = await verify(base, { key: 'any-key-at-all', compareMock: true });
    const differences = report.differences ?? [];
    expect(differences.map((d) => [d.behaviour, d.request])).toEqual(PRISM_DIFFERS.map(([behaviour, request]) => [behaviour, request]));
    const deprecation = differences.find((d) => d.behaviour === 'header.deprecation');
    expect(deprecation).toMatchObject({ deployment: 'sent deprecation: true', mock: 'sent deprecation: @1764892800' });
    expect(deprecation?.message).toContain('Versioning, rule 3');
  });
});
