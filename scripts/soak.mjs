// A bounded soak of the real CLI on 127.0.0.1: about 200,000 mixed requests over about a minute
// (valid, invalid, unauthorised, rate-limited, creates and every list shape spread over more
// sessions than the mock keeps, and the abuse docs/limits.md bounds: 8 KB paths in many sessions'
// journals, creates of the longest names until stores are full, lists of every size of those,
// bodies of 60,000 keys or a million digits), then a report of memory before and after, the journal against its bound and every
// error seen. It stops by itself; exit code 1 when anything went wrong.
//
//   npm run soak                   # SOAK_REQUESTS=200000 SOAK_RATE=3500 by default
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const TOTAL = Number(process.env.SOAK_REQUESTS ?? 200_000);
const RATE = Number(process.env.SOAK_RATE ?? 3_500);
const CONNECTIONS = 32;
const SESSIONS = 1_500; // more than the mock keeps (1,000), so old sessions are evicted
const JOURNAL_BOUND = 1_000;
const HARD_STOP_MS = Math.max(60_000, (TOTAL / RATE) * 1000 * 3);

const child = spawn(
  process.execPath,
  ['dist/cli.js', '--port', '0', '--ready-json', '--log-format', 'json', '--key', 'soak:enterprise:100000000:1000000000', '--key', 'tight:free:60:1000'],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
let stderr = '';
child.stderr.on('data', (d) => (stderr += d));
const hardStop = setTimeout(() => {
  console.error(`soak: still running after ${HARD_STOP_MS} ms; stopping.`);
  child.kill('SIGKILL');
  process.exit(1);
}, HARD_STOP_MS);

const log = { lines: 0, byStatus: {}, notInfo: 0, unparsable: 0 };
let origin;
const ready = new Promise((resolve, reject) => {
  child.on('exit', (code) => reject(new Error(`the mock exited early with ${code}: ${stderr}`)));
  createInterface({ input: child.stdout }).on('line', (line) => {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      log.unparsable++;
      return;
    }
    if (entry.event === 'ready') {
      origin = entry.origin;
      resolve();
      return;
    }
    log.lines++;
    log.byStatus[entry.status] = (log.byStatus[entry.status] ?? 0) + 1;
    if (entry.level !== 'info') log.notInfo++;
  });
});
await ready;

const admin = async (path, session) => (await fetch(`${origin}/__admin/${path}`, { headers: session ? { 'x-mock-session': session } : {} })).json();
const memory = async () => (await admin('health')).memory;
const auth = { authorization: 'Bearer soak' };
const json = { ...auth, 'content-type': 'application/json' };
let sessionCounter = 0;
let shapeCounter = 0;
let abuseCounter = 0;
const LONG = 'p'.repeat(4_000);
const LONG_NAME = `{"name":"${'n'.repeat(1_000)}","categoryId":1}`;
const MANY_KEYS = `{"name":"a","categoryId":1,${Array.from({ length: 60_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
const MANY_DIGITS = `{"name":"a","categoryId":${'9'.repeat(1_000_000)}}`;
const requests = [
  { method: 'GET', path: '/v1/pets?limit=20', headers: auth },
  { method: 'GET', path: '/v1/pets?status=sold&limit=5', headers: auth },
  { method: 'GET', path: '/v1/pets/7', headers: auth },
  { method: 'GET', path: '/v1/pets/999999', headers: auth },
  { method: 'GET', path: '/v1/pets?limit=0', headers: auth },
  { method: 'GET', path: '/v1/pets', headers: {} },
  { method: 'GET', path: '/v1/pets?limit=1', headers: { authorization: 'Bearer tight' } },
  {
    method: 'POST',
    path: '/v1/pets',
    headers: json,
    body: '{"name":"Soak","categoryId":1,"status":"pending"}',
    setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-mock-session': `soak-${sessionCounter++ % SESSIONS}` } }),
  },
  { method: 'POST', path: '/v1/pets', headers: json, body: '{"name":' },
  // Every list shape (limit 1..100, each status) in sessions that hold created animals.
  {
    method: 'GET',
    path: '/v1/pets',
    headers: auth,
    setupRequest: (req) => {
      const n = shapeCounter++;
      const status = ['', 'status=available&', 'status=pending&', 'status=sold&'][n % 4];
      return {
        ...req,
        path: `/v1/pets?${status}limit=${1 + (Math.floor(n / 4) % 100)}`,
        headers: { ...req.headers, 'x-mock-session': `soak-${n % SESSIONS}` },
      };
    },
  },
  { method: 'DELETE', path: '/v1/pets/1', headers: auth },
  // The abuse of docs/limits.md, in turn; the two costly bodies one time in twenty, as they are large.
  {
    method: 'GET',
    path: '/v1/pets',
    headers: auth,
    setupRequest: (req) => {
      const n = abuseCounter++;
      const session = { 'x-mock-session': `abuse-${n % SESSIONS}` };
      if (n % 20 === 0) return { ...req, method: 'POST', path: '/v1/pets', headers: { ...json, ...session }, body: n % 40 === 0 ? MANY_KEYS : MANY_DIGITS };
      switch (n % 3) {
        case 0:
          return { ...req, path: `/v1/${LONG}?q=${LONG}`, headers: { ...auth, ...session } };
        case 1:
          return { ...req, method: 'POST', path: '/v1/pets', headers: { ...json, 'x-mock-session': `abuse-${n % 4}` }, body: LONG_NAME };
        default:
          return { ...req, path: `/v1/pets?limit=${85 + (n % 16)}`, headers: { ...auth, 'x-mock-session': `abuse-${n % 4}` } };
      }
    },
  },
];

// Warm up until every session slot is taken (SESSIONS creates and more), so "before" is the steady state.
const warm = await autocannon({ url: origin, connections: 8, amount: 20_000, requests });
const before = await memory();
const samples = [];
const sampler = setInterval(async () => samples.push((await memory()).heapUsedBytes), 5_000);
const started = Date.now();
const result = await autocannon({ url: origin, connections: CONNECTIONS, amount: TOTAL, overallRate: RATE, requests });
const seconds = (Date.now() - started) / 1000;
clearInterval(sampler);
const after = await memory();
const journal = (await admin('requests')).length;
const sessionJournal = (await admin('requests', `soak-${(sessionCounter - 1) % SESSIONS}`)).length;
const health = await admin('health');

child.kill('SIGTERM');
const exitCode = await new Promise((resolve) => child.on('exit', resolve));
clearTimeout(hardStop);

const sent = warm.requests.total + result.requests.total;
// 507 store_full is the answer the abuse is meant to reach; any other 5xx is a failure.
const storeFull = (result.statusCodeStats['507']?.count ?? 0) + (warm.statusCodeStats['507']?.count ?? 0);
const fiveXx = result['5xx'] + warm['5xx'] - storeFull;
const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
const report = {
  date: new Date().toISOString(),
  node: process.version,
  requests: result.requests.total,
  seconds: Number(seconds.toFixed(1)),
  requestsPerSecond: Math.round(result.requests.total / seconds),
  statuses: result.statusCodeStats,
  connectionErrors: result.errors + warm.errors,
  timeouts: result.timeouts + warm.timeouts,
  fiveXx,
  storeFull,
  memory: { before, after, heapSamplesEvery5s: samples },
  journal: { default: journal, lastSession: sessionJournal, bound: JOURNAL_BOUND },
  sessions: health.sessions,
  log: { ...log, expected: sent },
  stderr,
  exitCode,
};
console.log(JSON.stringify(report, null, 2));
console.log(
  `\nsoak: ${report.requests} requests in ${report.seconds} s (${report.requestsPerSecond}/s), ${fiveXx} 5xx besides ${storeFull} 507 store_full, ` +
    `${report.connectionErrors} connection errors, ${report.timeouts} timeouts; heap ${mb(before.heapUsedBytes)} -> ${mb(after.heapUsedBytes)}, ` +
    `rss ${mb(before.rssBytes)} -> ${mb(after.rssBytes)}; heap every 5 s ${mb(Math.min(...samples))}..${mb(Math.max(...samples))}; journal ${journal}/${JOURNAL_BOUND}; ${health.sessions} sessions; ` +
    `${log.lines} log lines for ${sent} requests, ${log.notInfo} not info; exit ${exitCode}.`,
);
const failed =
  fiveXx > 0 ||
  report.connectionErrors > 0 ||
  report.timeouts > 0 ||
  journal > JOURNAL_BOUND ||
  sessionJournal > JOURNAL_BOUND ||
  log.notInfo > 0 ||
  log.unparsable > 0 ||
  log.lines !== sent ||
  stderr !== '' ||
  exitCode !== 0;
process.exit(failed ? 1 : 0);
