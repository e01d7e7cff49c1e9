// The key never shows, in any spelling a service may echo it back in, through any reporter; and a
// password in the base URL is refused before anything is sent, without being repeated.
import { afterEach, describe, expect, it } from 'vitest';
import { verify, VerifyCouldNotRun } from '../../src/index.js';
import { jsonReport, junitReport, prettyReport } from '../../src/verify/reporters.js';
import { Secrets } from '../../src/verify/secrets.js';
import { run, type CliRun } from '../e2e/cli.js';
import { freePort } from '../support/ports.js';
import { faithfulServer, type FaithfulServer } from './faithful-server.js';

const SECRET = 'sk+live/abc.def-1234';
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const unicodeEscaped = (text: string, upper: boolean): string =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`).join('');

/** Every spelling of the key a service may echo. */
const SPELLINGS: [string, string][] = [
  ['verbatim', SECRET],
  ['JSON with \\/ (PHP)', SECRET.replace(/\//g, '\\/')],
  ['JSON \\u escapes, lower-case hex', unicodeEscaped(SECRET, false)],
  ['JSON \\u escapes, upper-case hex', unicodeEscaped(SECRET, true)],
  ['URL-escaped, upper-case hex', encodeURIComponent(SECRET)],
  ['URL-escaped, lower-case hex', encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
  ['form-encoded', new URLSearchParams({ k: SECRET }).toString().slice(2)],
  ['base64 of the key', b64(SECRET)],
  ['base64 of user:key', b64(`user:${SECRET}`)],
  ['base64 of ab:key', b64(`ab:${SECRET}`)],
  ['base64 of a:key', b64(`a:${SECRET}`)],
  ['base64url of the key', Buffer.from(SECRET).toString('base64url')],
];

describe('the key in every spelling', () => {
  const secrets = new Secrets(SECRET);
  it.each(SPELLINGS)('%s is replaced', (_name, spelled) => {
    const scrubbed = secrets.scrub(`before ${spelled} after`);
    expect(scrubbed).toMatch(/^before <key>( \(base64\))? after$/);
  });

  it('leaves text without the key as it is, a long run of base64 included, in linear time', () => {
    const text = `Bearer ${b64('user:other-secret-0000')} ${'A'.repeat(1_000_000)}`;
    expect(secrets.scrub(text)).toBe(text);
  });
});

const servers: FaithfulServer[] = [];
const runs: CliRun[] = [];
afterEach(async () => {
  for (const r of runs.splice(0)) if (r.child.exitCode === null) r.child.kill('SIGKILL');
  for (const server of servers.splice(0)) await server.close();
});

/** A deployment that echoes the key in every spelling, in headers, bodies and names. */
async function echoing(): Promise<FaithfulServer> {
  const all = SPELLINGS.map(([, s]) => s).join(' ');
  const server = await faithfulServer({
    key: SECRET,
    deviation: {
      answer: (answer, asked) => {
        answer.headers.link = `</v1/pets?token=${SPELLINGS[5]?.[1]}>; rel="next"`;
        answer.headers['www-authenticate'] = `Basic ${b64(`user:${SECRET}`)}`;
        answer.headers.location = `/v1/pets?k=${encodeURIComponent(SECRET)}`;
        if (answer.status === 401) answer.body = `{"code":"${SPELLINGS[1]?.[1]}","message":"${all.replace(/\\/g, '\\\\')}","status":"wrong"}`;
        // The get answers another name, the key \u-escaped: get.found fails and quotes it.
        if (asked.method === 'GET' && /^\/v1\/pets\/\d+$/.test(asked.path) && answer.status === 200)
          answer.body = JSON.stringify({ ...(answer.body as object), name: '@@' }).replace('@@', unicodeEscaped(SECRET, true));
      },
    },
  });
  servers.push(server);
  return server;
}

function expectNoKey(output: string): void {
  for (const [, spelled] of SPELLINGS) expect(output).not.toContain(spelled);
  expect(output).not.toContain('abc.def-1234');
  expect(output).not.toContain(SECRET.replace(/\//g, '\\\\/'));
}

describe('a service that echoes the key', () => {
  it('has it hidden by every reporter, in evidence and in messages', async () => {
    const server = await echoing();
    const report = await verify(server.base, { key: SECRET });
    expect(report.rules.find((r) => r.id === 'get.found')?.message).toMatch(/has name "<key>" here/);
    expect(report.rules.find((r) => r.id === 'error.shape')).toMatchObject({ ok: false });
    for (const [output, shown] of [
      [prettyReport(report), '<key>'],
      [jsonReport(report), '<key>'],
      [junitReport(report), '&lt;key&gt;'],
    ] as const) {
      expect(output).toContain(shown);
      expectNoKey(output);
    }
  });

  it('has it hidden when it refuses the key and quotes it back', async () => {
    const other = await faithfulServer({
      key: SECRET,
      deviation: { answer: (a) => void (a.status === 401 && (a.body = `{"code":"${SECRET.replace(/\//g, '\\/')}","message":"m","status":401}`)) },
    });
    servers.push(other);
    // The key sent is refused; the service quotes the key verify was given, JSON-escaped.
    const refused = await verify(other.base, { key: SECRET.replace('sk', 'sK') }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(VerifyCouldNotRun);
    expect((refused as Error).message).toMatch(/answered 401 sk\+live\/abc\.def-1234\); check --key\.$/);
  });
});

describe('credentials in the base URL', () => {
  it('are refused before anything is sent, and not repeated', async () => {
    const server = await faithfulServer();
    servers.push(server);
    const withPassword = server.base.replace('http://', 'http://staging-user:hunter2-pass@');
    const error = await verify(withPassword, { key: 'some-key' }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `petstore-mock: verify takes no user name or password in the base URL; give it without them (${server.base}) and the API key with --key.`,
    );
    expect(server.seen).toEqual([]);
  });

  it.each([
    ['a listening address', true],
    ['an address where nothing listens (the unreachable path)', false],
  ])('the CLI prints no password: %s', async (_name, listening) => {
    const base = listening ? (await faithfulServer().then((s) => (servers.push(s), s))).base : `http://127.0.0.1:${await freePort()}/v1`;
    for (const reporter of ['pretty', 'json', 'junit']) {
      const r = run(process.execPath, [
        'dist/cli.js',
        'verify',
        base.replace('http://', 'http://staging-user:hunter2-pass@'),
        '--key',
        'k-123456',
        '--reporter',
        reporter,
      ]);
      runs.push(r);
      expect(await r.exited).toBe(1);
      expect(r.stdout()).toBe('');
      expect(r.stderr()).toMatch(
        /^petstore-mock: verify takes no user name or password in the base URL; give it without them \(http:\/\/127\.0\.0\.1:\d+\/v1\)/,
      );
      expect(r.stderr()).not.toContain('hunter2');
      expect(r.stderr()).not.toContain('unreachable');
    }
    expect(servers.flatMap((s) => s.seen)).toEqual([]);
  });

  it('and mistyped ones are not repeated either', async () => {
    await expect(verify('ftp://u:hunter2-pass@example.com/v1', { key: 'some-key' })).rejects.toThrow(
      'verify talks HTTP: give an http:// or https:// base URL, not "ftp://…@example.com/v1".',
    );
    await expect(verify('u:hunter2-pass@', { key: 'some-key' })).rejects.toThrow(/not "…@"\.$/);
  });
});
