// verify --compare-mock and --profile against stand-ins of a deployment: a hand-made server that
// answers as the mock would but for deliberate deviations (each found once, nothing else), and
// the mock itself under a scenario with latency and other limits (the profile reproduces them).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, verify, type RunningMock } from '../../src/index.js';
import { render as renderWithDifferences } from '../../src/verify/reporters.js';
import { checkProfile, type Profile } from '../../src/core/scenarios/profile.js';
import { T0 } from '../support/mock.js';
import { cliLauncher, waitFor } from '../e2e/cli.js';
import type { Logged, Seen } from '../../src/verify/client.js';
import { announcedLimits, buildProfile } from '../../src/verify/profile.js';
import { compareAnswers } from '../../src/verify/compare-answers.js';

const KEY = 'parity-key-0123456789';
/** A key with room for verify's whole run (Pro's 300 a minute), for the command line's run in real time. */
const CLI_KEY = 'parity-cli-key-0123456789';

/** An answer on its way out of the hand-made server, which a deviation may rewrite. */
interface Outgoing {
  method: string;
  path: string;
  authorization: string | undefined;
  status: number;
  headers: Record<string, string>;
  body: string;
}
type Deviation = (answer: Outgoing) => void;

/** What the hand-made server gets wrong, each in one behaviour the comparison names. */
const DEVIATIONS: Record<string, Deviation> = {
  // Sold animals listed newest first.
  'list.order': (a) => {
    if (a.status === 200 && a.path.includes('status=sold')) a.body = JSON.stringify((JSON.parse(a.body) as unknown[]).reverse());
  },
  // A list asked for with no key at all gets a 401 without a challenge.
  'header.www-authenticate': (a) => {
    if (a.status === 401 && a.authorization === undefined && a.method === 'GET' && a.path === '/v1/pets') delete a.headers['www-authenticate'];
  },
  // Retry-After half a minute past the reset.
  'retry-after': (a) => {
    if (a.status === 429) a.headers['retry-after'] = String(Number(a.headers['retry-after']) + 30);
  },
  // The created animal's name echoed in capitals.
  'create.echo': (a) => {
    if (a.status === 201) {
      const pet = JSON.parse(a.body) as { name: string };
      a.body = JSON.stringify({ ...pet, name: pet.name.toUpperCase() });
    }
  },
};

/** A node:http deployment answering from `behind` (every header, its Date included) through the deviations. */
async function handMade(behind: RunningMock, deviations: readonly Deviation[]): Promise<{ base: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const name of ['authorization', 'content-type', 'accept']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
        const answer = await fetch(`${behind.origin}${req.url ?? '/'}`, { method: req.method, headers, ...(body === '' ? {} : { body }) });
        const out: Outgoing = {
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          authorization: req.headers.authorization,
          status: answer.status,
          headers: {},
          body: await answer.text(),
        };
        answer.headers.forEach((value, name) => {
          if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding'].includes(name)) out.headers[name] = value;
        });
        for (const deviate of deviations) deviate(out);
        res.writeHead(out.status, out.headers);
        res.end(out.body);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

describe('verify --compare-mock against a hand-made deployment', () => {
  let behind: RunningMock;
  const servers: Server[] = [];
  beforeAll(async () => {
    behind = await startMock({ port: 0, keys: [`${KEY}:pro:8:1000`, `${CLI_KEY}:pro`] });
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await behind?.close();
  });

  async function compared(deviations: readonly Deviation[]) {
    behind.reset();
    behind.clock.freeze();
    behind.clock.set(T0);
    const { base, server } = await handMade(behind, deviations);
    servers.push(server);
    const report = await verify(base, { key: KEY, rateLimits: true, compareMock: true, wait: async (s) => behind.clock.advance(s * 1000) });
    return { base, report };
  }

  it('finds no difference where the deployment answers as the mock does', async () => {
    const { report } = await compared([]);
    expect(report.differences).toEqual([]);
  });

  it('finds each deliberate deviation once, under its behaviour, and nothing else', async () => {
    const { report } = await compared(Object.values(DEVIATIONS));
    const differences = report.differences ?? [];
    expect(differences.map((d) => d.behaviour).sort()).toEqual(Object.keys(DEVIATIONS).sort());
    const by = (behaviour: string) => differences.find((d) => d.behaviour === behaviour);
    expect(by('list.order')?.request).toBe('GET /v1/pets?status=sold&limit=100');
    expect(by('header.www-authenticate')).toMatchObject({
      request: 'GET /v1/pets',
      deployment: 'sent no www-authenticate',
      mock: 'sent www-authenticate: Bearer realm="petstore"',
    });
    expect(by('retry-after')?.deployment).toMatch(/^sent Retry-After: (\d+) \(X-RateLimit-Reset is Date \+ \d+ s\)$/);
    expect(by('create.echo')).toMatchObject({ request: 'POST /v1/pets', mock: 'echoed it as sent' });
    // Each says which side did what and the rule each follows.
    for (const d of differences)
      expect(d.message).toMatch(/the deployment .*, the mock .*; the mock follows .*(docs\/reference\.md).*; (the specification|.* holds for both)/);
    expect(by('retry-after')?.message).toContain('Request rate, rule 4');
    // The mock's requests cost the deployment's budget nothing: the deployment saw each request once.
    expect(behind.requests()).toHaveLength(report.requests);
  });

  it('prints the differences with every reporter: JSON adds "differences", JUnit a failing parity case each, and the key never shows', async () => {
    const { report } = await compared([DEVIATIONS['create.echo'] as Deviation]);
    const json = JSON.parse(renderWithDifferences(report, 'json')) as { differences: object[]; rules: object[] };
    expect(json.differences).toEqual([expect.objectContaining({ behaviour: 'create.echo', request: 'POST /v1/pets' })]);
    expect(Object.keys(json.differences[0] ?? {})).toEqual(['behaviour', 'request', 'deployment', 'mock', 'message']);
    const junit = renderWithDifferences(report, 'junit');
    expect(junit).toMatch(/<testsuite name="petstore-mock parity" tests="1" failures="1"/);
    expect(junit).toMatch(/<testcase classname="petstore-mock.parity" name="create.echo: POST \/v1\/pets"/);
    const outer = /<testsuites [^>]*tests="(\d+)" failures="(\d+)"/.exec(junit);
    expect(Number(outer?.[1])).toBe(report.rules.length + 1);
    expect(Number(outer?.[2])).toBe(report.failed + 1);
    expect(renderWithDifferences(report, 'pretty')).toMatch(/compared with an in-process mock: 1 difference\n {2}DIFF {2}create\.echo {2}POST \/v1\/pets/);
    for (const reporter of ['json', 'junit', 'pretty'] as const) expect(renderWithDifferences(report, reporter)).not.toContain(KEY);
  });

  it('read-only sends no POST to either side: the deployment sees none and no create difference can come', async () => {
    const { report } = await compared([DEVIATIONS['create.echo'] as Deviation, DEVIATIONS['list.order'] as Deviation]);
    expect(report.differences?.map((d) => d.behaviour).sort()).toEqual(['create.echo', 'list.order']);
    behind.reset();
    const { base, server } = await handMade(behind, [DEVIATIONS['create.echo'] as Deviation, DEVIATIONS['list.order'] as Deviation]);
    servers.push(server);
    const readOnly = await verify(base, { key: CLI_KEY, readOnly: true, compareMock: true });
    expect(readOnly.stopped).toBeUndefined();
    expect(behind.requests({ method: 'POST' })).toEqual([]);
    expect(readOnly.differences?.map((d) => d.behaviour)).toEqual(['list.order']);
    expect(behind.requests()).toHaveLength(readOnly.requests);
  });

  it('the command exits 1 on a difference, prints JSON with differences and writes the profile, the key nowhere', async () => {
    behind.reset();
    // Ten seconds into a minute, running on: the run's resets then lie well within one minute. A run
    // that fell within a minute's last second would read as a per-second window (every reset one
    // second ahead), which is what such answers also mean from a deployment that counts per second.
    behind.clock.set(T0 + 10_000);
    behind.clock.unfreeze();
    const { base, server } = await handMade(behind, [DEVIATIONS['list.order'] as Deviation]);
    servers.push(server);
    const dir = mkdtempSync(join(tmpdir(), 'parity-cli-'));
    try {
      const file = join(dir, 'profile.json');
      // Spawned without blocking: the hand-made server answers from this process.
      const child = spawn(process.execPath, [
        'bin/petstore-mock.js',
        'verify',
        base,
        '--key',
        CLI_KEY,
        '--compare-mock',
        '--profile',
        file,
        '--reporter',
        'json',
      ]);
      const run = { stdout: '', stderr: '', status: null as number | null };
      child.stdout.on('data', (d: Buffer) => (run.stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (run.stderr += d.toString()));
      run.status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(run.status, run.stderr).toBe(1);
      const printed = JSON.parse(run.stdout) as { differences: { behaviour: string }[] };
      expect(printed.differences.map((d) => d.behaviour)).toEqual(['list.order']);
      const profile = readFileSync(file, 'utf8');
      expect(JSON.parse(profile)).toMatchObject({ format: 'petstore-mock/profile', version: 1, base, limits: ['300/m'], retryAfterForm: 'seconds' });
      expect(run.stdout + run.stderr + profile).not.toContain(CLI_KEY);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The percentile by nearest rank of a sorted list. */
const nearest = (sorted: number[], p: number): number => sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1] ?? NaN;

describe('verify --profile against the mock under a scenario', () => {
  let standIn: RunningMock;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'parity-profile-'));
    const scenario = join(dir, 'staging-like.json');
    writeFileSync(
      scenario,
      JSON.stringify({
        description: 'a staging-like deployment: slow answers, a minute and an hour window',
        keys: [{ key: KEY, plan: 'pro', limits: ['10/m', '15/h'] }],
        latency: { min: '10ms', max: '30ms', seed: 7 },
      }),
    );
    standIn = await startMock({ port: 0, scenario });
    standIn.clock.freeze();
    standIn.clock.set(T0);
  });
  afterAll(async () => {
    await standIn?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('measures latency and the windows; a mock started with the profile has those limits exactly and the latency percentiles within 20%', async () => {
    const file = join(dir, 'profile.json');
    const report = await verify(standIn.url, { key: KEY, rateLimits: true, profile: file, wait: async (s) => standIn.clock.advance(s * 1000) });
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    expect(profile).toEqual(report.profile);
    // The hour window shows once the minute's reset has passed and the hour has fewer left.
    expect(profile.limits).toEqual(['10/m', '15/h']);
    expect(profile.errorCodes).toEqual(expect.arrayContaining(['missing_api_key', 'invalid_query', 'rate_limited']));
    // The instant's form is checked apart; Ajv is given the format by name only.
    const ajv = new Ajv({ formats: { 'date-time': true } });
    expect(new Date(profile.measuredAt).toISOString()).toBe(profile.measuredAt);
    const valid = ajv.compile(JSON.parse(readFileSync('scenarios/profile.schema.json', 'utf8')) as object);
    expect(valid(profile), JSON.stringify(valid.errors)).toBe(true);
    const list = profile.operations.listPets?.latencyMs;
    expect(list?.p50).toBeGreaterThanOrEqual(10);

    const profiled = await startMock({ port: 0, profile: file, keys: [`${KEY}:free`] });
    try {
      profiled.clock.freeze();
      profiled.clock.set(T0);
      // Limits exactly: verify of the profiled mock announces the same windows.
      const again = await verify(profiled.url, { key: KEY, rateLimits: true, profile: true, wait: async (s) => profiled.clock.advance(s * 1000) });
      expect(again.profile?.limits).toEqual(['10/m', '15/h']);
      // Every key the mock knows has them: a demo key too.
      const demo = await fetch(`${profiled.url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-business' } });
      expect(demo.headers.get('x-ratelimit-limit')).toBe('10');
    } finally {
      await profiled.close();
    }
    // Latency, on a mock given the profile's latency alone (so no window refuses): 200 requests in
    // batches of 25. What the mock waited is in its journal (delayMs); the wire adds this machine's
    // own overhead on top, so the percentiles are judged on what the mock answered with, and the
    // time each answer took on the wire only has to cover it.
    const slow = await startMock({ port: 0, profile: { ...profile, limits: [] } });
    try {
      const wire: number[] = [];
      for (let batch = 0; batch < 8; batch++) {
        wire.push(
          ...(await Promise.all(
            Array.from({ length: 25 }, async () => {
              const started = performance.now();
              await (await fetch(`${slow.url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-business' } })).text();
              return performance.now() - started;
            }),
          )),
        );
      }
      const waited = slow.requests().map((e) => e.delayMs ?? 0);
      expect(waited).toHaveLength(200);
      const sorted = [...waited].sort((a, b) => a - b);
      for (const p of ['p50', 'p95', 'p99'] as const) {
        const want = list?.[p] ?? NaN;
        const got = nearest(sorted, Number(p.slice(1)));
        expect(Math.abs(got - want) / want, `${p}: profile ${want} ms, profiled mock ${got} ms`).toBeLessThanOrEqual(0.2);
      }
      expect(
        nearest(
          [...wire].sort((a, b) => a - b),
          50,
        ),
      ).toBeGreaterThanOrEqual(nearest(sorted, 50) - 1);
    } finally {
      await slow.close();
    }
  });
});

describe('petstore-mock --profile FILE', () => {
  const cli = cliLauncher('--port', '0', '--ready-json');
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'parity-cli-profile-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("answers with the profile's limits for every key; a file that is no profile stops the start with one line naming the field", async () => {
    const good = join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({
        format: 'petstore-mock/profile',
        version: 1,
        base: 'https://staging.example.com/v1',
        measuredAt: '2026-03-10T12:00:00.000Z',
        operations: { listPets: { latencyMs: { p50: 2, p95: 4, p99: 5 } } },
        limits: ['7/m'],
        retryAfterForm: 'seconds',
      }),
    );
    const started = cli('--profile', good);
    const [line] = await waitFor(started, /^\{.*\}\n/);
    const { url } = JSON.parse(line) as { url: string };
    for (const key of ['demo-free', 'demo-enterprise']) {
      const answer = await fetch(`${url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      expect(answer.headers.get('x-ratelimit-limit')).toBe('7');
    }
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ format: 'petstore-mock/profile', version: 2 }));
    const refused = cli('--profile', bad);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toMatch(
      /^petstore-mock: the profile \S*bad\.json is not a petstore-mock profile \(at \/version\): this petstore-mock reads profiles of version 1, not 2\.\n$/,
    );
  });
});

/** An exchange as the client logs it, for the pure parts: what was asked, what came back, when. */
function logged(path: string, status: number, headers: Record<string, string>, seen: Seen = {}, at = T0): Logged {
  const request: Logged['request'] = { operation: 'listPets', method: 'GET', path, auth: 'key' };
  return {
    exchange: { request: { method: 'GET', url: `https://staging.example.com/v1${path}`, headers: {} }, response: { status, headers, body: '' } },
    json: undefined,
    at,
    cut: false,
    shape: undefined,
    request,
    ms: 1,
    seen,
  };
}

describe('the pure parts of --profile and --compare-mock', () => {
  const s = (ms: number): string => String(Math.floor(ms / 1000));
  it.each([
    ['a second window', '10', T0 + 1000, '10/s'],
    ['a minute window', '600', T0 + 60_000, '600/m'],
    ['an hour window', '5000', T0 + 3_600_000, '5000/h'],
    ['a UTC day window', '100000', Date.UTC(2026, 2, 11), '100000/d'],
  ])('reads %s from X-RateLimit-Limit and the reset against Date', (_what, limit, reset, window) => {
    // Two answers of the window, the second a second on: the unit is the shortest holding both resets.
    const log = [T0, T0 + 500].map((at) => logged('/pets', 200, { 'x-ratelimit-limit': limit, 'x-ratelimit-reset': s(reset) }, {}, at - (at % 1000)));
    if (window !== '10/s') log.push(logged('/pets', 200, { 'x-ratelimit-limit': limit, 'x-ratelimit-reset': s(reset) }, {}, T0));
    expect(announcedLimits(log)).toEqual([window]);
  });

  it('writes the Retry-After form, the codes seen and a base without credentials', () => {
    const log = [
      logged('/pets', 200, {}),
      logged('/pets', 429, { 'retry-after': new Date(T0 + 30_000).toUTCString() }, { code: 'too_many' }),
      logged('/pets', 401, {}, { code: 'no_key' }),
    ];
    const profile = buildProfile('https://user:secret@staging.example.com/v1?token=abc#x', log, (t) => t);
    expect(profile).toMatchObject({ base: 'https://staging.example.com/v1', retryAfterForm: 'http-date', errorCodes: ['no_key', 'too_many'], limits: [] });
    expect(buildProfile('https://staging.example.com/v1', [logged('/pets', 429, { 'retry-after': '30' })], (t) => t).retryAfterForm).toBe('seconds');
  });

  const side = (status: number, headers: Record<string, string>, code?: string) => ({ status, headers, seen: code === undefined ? {} : { code } });
  it.each([
    [
      // A 429 with another code than the deployment's first 429 is its ban.
      'a ban where the mock refuses for the rate',
      [
        logged('/pets?limit=1', 429, { 'retry-after': '20' }, { code: 'rate_limited' }),
        logged('/pets?limit=1', 429, { 'retry-after': '300' }, { code: 'key_blocked' }),
      ],
      side(429, { 'retry-after': '20' }, 'rate_limited'),
      [['ban', 'banned the key (answered 429 key_blocked)', 'did not ban it (answered 429 rate_limited)']],
    ],
    [
      'a ban that ends later',
      logged('/pets?limit=1', 429, { 'retry-after': '600' }, { code: 'banned' }),
      side(429, { 'retry-after': '300' }, 'key_banned'),
      [['ban', 'ends the ban after Retry-After: 600', 'ends it after Retry-After: 300']],
    ],
    [
      'a reset a second apart (the same instant) and a Retry-After a second apart',
      logged(
        '/pets?limit=1',
        429,
        { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1000', 'retry-after': '31' },
        { code: 'rate_limited' },
      ),
      side(429, { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1001', 'retry-after': '30' }, 'rate_limited'),
      [],
    ],
    [
      'a reset two seconds apart',
      logged('/pets', 200, { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '1000' }),
      side(200, { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '1002' }),
      [['header.x-ratelimit-reset', 'sent x-ratelimit-reset: 1000', 'sent x-ratelimit-reset: 1002']],
    ],
  ])('judges %s', (_what, deployment, mock, expected) => {
    // The mock answered each request alike; only the last pair differs where a case says so.
    const found = compareAnswers((Array.isArray(deployment) ? deployment : [deployment]).map((l) => ({ logged: l, mock })));
    expect(found.map((d) => [d.behaviour, d.deployment, d.mock])).toEqual(expected);
  });
});

describe('docs/verify.md, Keep your mock honest', () => {
  it('shows a profile the mock reads and its schema takes', () => {
    const doc = readFileSync('docs/verify.md', 'utf8');
    const example = /## Keep your mock honest[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const profile = JSON.parse(example) as unknown;
    expect(checkProfile(profile)).toBe(profile);
    const valid = new Ajv({ formats: { 'date-time': true } }).compile(JSON.parse(readFileSync('scenarios/profile.schema.json', 'utf8')) as object);
    expect(valid(profile), JSON.stringify(valid.errors)).toBe(true);
  });
});
