// The built CLI, on a heap of 64 MB, against a deployment whose answers are huge, endless, slow,
// compressed bombs or terminal escapes: verify reads at most 1 MiB of each, gives up on a slow
// one at its timeout, prints what it read escaped, and ends with a report and exit 1, its memory
// flat, whatever came.
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { constants, createBrotliCompress, createDeflate, createGzip } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { verify } from '../../src/index.js';
import { LARGEST_LIST_BYTES } from '../../src/verify/read-answer.js';
import { run, type CliRun } from '../e2e/cli.js';
import { faithfulServer, KEY, type Asked, type FaithfulServer } from './faithful-server.js';

const servers: FaithfulServer[] = [];
const runs: CliRun[] = [];
afterEach(async () => {
  for (const r of runs.splice(0)) if (r.child.exitCode === null) r.child.kill('SIGKILL');
  for (const server of servers.splice(0)) await server.close();
});

const CHUNK = Buffer.from(`[${'{"id":1,"name":"Ginger","categoryId":2,"status":"available"},'.repeat(1000)}`);

/** Bytes without end, as fast as the reader takes them: `close` stops it. */
function endless(res: ServerResponse, chunk: Buffer): void {
  const write = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', write);
  };
  write();
}

/** Zeros without end, compressed: a few kilobytes on the wire, without limit once inflated. */
function bomb(res: ServerResponse, encoding: 'gzip' | 'deflate' | 'br'): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
  const zeros = Buffer.alloc(64 * 1024);
  const source = Readable.from(
    (function* () {
      for (;;) yield zeros;
    })(),
  );
  const compress =
    encoding === 'gzip' ? createGzip() : encoding === 'deflate' ? createDeflate() : createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
  source.pipe(compress).pipe(res);
  res.on('close', () => {
    source.destroy();
    compress.destroy();
  });
}

const isDefaultPage = (a: Asked): boolean => a.method === 'GET' && a.path === '/v1/pets' && a.token === KEY && [...a.query.keys()].length === 0;

const KINDS: { kind: string; answer: (asked: Asked, res: ServerResponse) => boolean }[] = [
  {
    kind: 'a 300 MB body for every request',
    answer: (_a, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * 1024 * 1024) });
      endless(res, CHUNK);
      return true;
    },
  },
  {
    kind: 'a chunked body without end for every request',
    answer: (_a, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      endless(res, CHUNK);
      return true;
    },
  },
  { kind: 'a gzip bomb for every request', answer: (_a, res) => (bomb(res, 'gzip'), true) },
  { kind: 'a deflate bomb for every request', answer: (_a, res) => (bomb(res, 'deflate'), true) },
  { kind: 'a brotli bomb for every request', answer: (_a, res) => (bomb(res, 'br'), true) },
];

async function verifyCli(
  server: FaithfulServer,
  ...args: string[]
): Promise<{ code: number | null; report: Record<string, unknown>; stdout: string; stderr: string }> {
  const r = run(process.execPath, ['--max-old-space-size=64', 'dist/cli.js', 'verify', server.base, '--key', KEY, '--reporter', 'json', ...args]);
  runs.push(r);
  const code = await r.exited;
  let report: Record<string, unknown> = {};
  try {
    report = JSON.parse(r.stdout()) as Record<string, unknown>;
  } catch {
    throw new Error(`no JSON report (exit ${code}); stderr:\n${r.stderr().slice(0, 2000)}`);
  }
  return { code, report, stdout: r.stdout(), stderr: r.stderr() };
}

interface Rule {
  id: string;
  ok: boolean;
  skipped: boolean;
  message: string;
  evidence: { request: { headers: Record<string, string> }; response?: { body: string }; error?: string }[];
}

describe('verify against answers it must not read whole', () => {
  it.each(KINDS)('$kind: reads 1 MiB of each, reports, exits 1', async ({ answer }) => {
    const encodings = new Set<string>();
    const server = await faithfulServer({
      deviation: {
        takeOver: (asked, res) => {
          encodings.add(String(res.req.headers['accept-encoding']));
          return answer(asked, res);
        },
      },
    });
    servers.push(server);
    const { code, report, stdout } = await verifyCli(server, '--read-only');
    expect(code).toBe(1);
    const rules = report.rules as Rule[];
    const bodies = rules.find((r) => r.id === 'openapi.bodies');
    expect(bodies?.message).toMatch(
      /^GET \/v1\/pets\?limit=100 answered 200 with a body larger than 1,048,576 bytes, the most verify reads of one answer \(the largest real one, 100 animals with the longest fields, is 609,301 bytes\)/,
    );
    expect(rules.find((r) => r.id === 'list.default-limit')?.message).toMatch(/larger than 1,048,576 bytes/);
    // Evidence keeps 2,000 characters of each body and says how much more it read.
    for (const rule of rules)
      for (const e of rule.evidence) expect(e.response?.body ?? '').toMatch(/^[\s\S]{2000}… \(\d+ more characters, and more past 1,048,576 bytes unread\)$/);
    // The whole report is smaller than one answer verify would not read.
    expect(stdout.length).toBeLessThan(1024 * 1024);
    // verify asked for no compression; what came compressed was inflated and counted as inflated.
    expect([...encodings]).toEqual(['identity']);
  });

  it('reads the largest real answer whole: 100 animals with the longest fields, pretty-printed', async () => {
    const pet = (indent: string): string =>
      [`{`, `"id": -9223372036854775808,`, `"name": "${'\\u00e9'.repeat(1000)}",`, `"categoryId": -9223372036854775808,`, `"status": "available"`]
        .join(`\n${indent}`)
        .concat(`\n}`);
    const compact = `[${Array.from({ length: 100 }, () => pet('').replace(/\n/g, '').replace(/": /g, '":')).join(',')}]`;
    expect(compact.length).toBe(LARGEST_LIST_BYTES);
    const pretty = `[\n${Array.from({ length: 100 }, () => pet('        ')).join(',\n')}\n]`;
    expect(pretty.length).toBeGreaterThan(LARGEST_LIST_BYTES);
    const server = await faithfulServer({
      deviation: {
        takeOver: (asked, res) => {
          if (asked.token !== KEY || asked.query.get('limit') !== '100' || asked.query.has('status')) return false;
          res.writeHead(200, {
            'content-type': 'application/json',
            'x-ratelimit-limit': '1000',
            'x-ratelimit-remaining': '999',
            'x-ratelimit-reset': '4102444800',
          });
          res.end(pretty);
          return true;
        },
      },
    });
    servers.push(server);
    const report = await verify(server.base, { key: KEY });
    expect(report.rules.find((r) => r.id === 'openapi.bodies')).toMatchObject({ ok: true });
    expect(report.rules.find((r) => r.id === 'list.default-limit')?.message).toBe('GET /pets returned 20 of the 100 or more animals');
    expect(report.rules.filter((r) => r.message.includes('larger than'))).toEqual([]);
  });

  it('stops reading past the cap: every endless answer is closed by the time verify returns', async () => {
    const closed: Promise<void>[] = [];
    const server = await faithfulServer({
      deviation: {
        takeOver: (_asked, res) => {
          closed.push(new Promise((resolve) => res.on('close', resolve)));
          res.writeHead(200, { 'content-type': 'application/json' });
          endless(res, CHUNK);
          return true;
        },
      },
    });
    servers.push(server);
    const report = await verify(server.base, { key: KEY, readOnly: true });
    expect(report.requests).toBe(closed.length);
    await Promise.all(closed);
  });

  it('a body that comes slower than the timeout: the rule that asked fails, the run goes on', async () => {
    const server = await faithfulServer({
      deviation: {
        takeOver: (asked, res) => {
          if (!isDefaultPage(asked)) return false;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('[');
          const drip = setInterval(() => res.write(' '), 100);
          res.on('close', () => clearInterval(drip));
          return true;
        },
      },
    });
    servers.push(server);
    const { code, report } = await verifyCli(server, '--read-only', '--timeout', '1');
    expect(code).toBe(1);
    const rules = report.rules as Rule[];
    expect(rules.filter((r) => !r.ok && !r.skipped).map((r) => r.id)).toEqual(['list.default-limit']);
    expect(rules.find((r) => r.id === 'list.default-limit')?.message).toMatch(
      /^GET \/pets answered nothing \(no whole answer within 1 s \(200 and \d+ bytes? of its body came\)\)/,
    );
  });

  it('a slow answer to the first request: verify could not run, exit 2', async () => {
    const server = await faithfulServer({ deviation: { takeOver: () => true } });
    servers.push(server);
    const r = run(process.execPath, ['dist/cli.js', 'verify', server.base, '--key', KEY, '--timeout', '1']);
    runs.push(r);
    expect(await r.exited).toBe(2);
    // The pretty report is the reason, under its first line (json and junit say it on stderr too).
    expect(r.stderr()).toBe('');
    expect(r.stdout()).toBe(
      `petstore-mock verify ${server.base}\n\npetstore-mock: could not run: ${server.base} is unreachable (no answer within 1 s); check the URL and that the service is up.\n`,
    );
  });

  it.each(['0', '601', '1.5', 'soon'])('refuses --timeout %s with one line, exit 1', async (value) => {
    const r = run(process.execPath, ['dist/cli.js', 'verify', 'http://127.0.0.1:1/v1', '--key', KEY, '--timeout', value]);
    runs.push(r);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toBe(`petstore-mock: --timeout must be a whole number of seconds from 1 to 600, not "${value}".\n`);
  });

  it.each(['pretty', 'json', 'junit'])('a body of terminal escapes reaches the %s report escaped', async (reporter) => {
    const hostile = '\u001b]0;PWNED\u0007\u001b[2K\r  pass  list.limit-bounds  all fine\u009b2J';
    const server = await faithfulServer({
      deviation: {
        answer: (a, q) => {
          if (q.query.get('limit') !== '0') return;
          a.status = 200;
          a.body = `[${JSON.stringify(hostile)}, "${hostile}"]`;
        },
      },
    });
    servers.push(server);
    const r = run(process.execPath, ['dist/cli.js', 'verify', server.base, '--key', KEY, '--read-only', '--reporter', reporter]);
    runs.push(r);
    expect(await r.exited).toBe(1);
    expect(r.stdout()).toContain('PWNED');
    expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.exec(r.stdout())).toBeNull();
    expect(
      r
        .stdout()
        .split('\n')
        .filter((line) => line.includes('all fine') && /^\s*pass/.test(line)),
    ).toEqual([]);
  });
});
