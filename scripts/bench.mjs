// npm run bench: petstore-mock against a bare node:http baseline and json-server 0.17, in one run.
// Loopback only, bounded (a few minutes), stops by itself. Writes .bench/bench.json and
// regenerates docs/benchmarks.md and docs/benchmarks.svg.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  BENCH_KEY_SPEC,
  LOAD_CORE,
  NEW_PET,
  ROOT,
  commitOf,
  load,
  machineFacts,
  median,
  outputOf,
  pinned,
  rssMb,
  sequential,
  sleep,
  startServer,
} from './bench/lib.mjs';
import { writeReport } from './bench/report.mjs';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 2 : 10;
const COLD_STARTS = quick ? 3 : 7;
const SECONDS = quick ? 1 : 2;
const CONNECTIONS = 50;
const IDLE_SETTLE_MS = 1000;

mkdirSync(`${ROOT}.bench`, { recursive: true });
const DB = `${ROOT}.bench/json-server-db.json`;
const DB_SEED = `${ROOT}.bench/json-server-db.seed.json`;
// The same shape and count as the mock's default store: 50 animals.
const statuses = ['available', 'pending', 'sold'];
writeFileSync(
  DB_SEED,
  JSON.stringify(
    { pets: Array.from({ length: 50 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: (i % 12) + 1, status: statuses[i % 3] })) },
    null,
    2,
  ),
);

// The command as `npx petstore-mock` and a package's bin run it (its start is one of the figures).
const mockArgs = (extra) => (port) => ['bin/petstore-mock.js', '--port', String(port), '--key', BENCH_KEY_SPEC, ...extra];
const SERVERS = [
  {
    id: 'baseline',
    name: 'bare node:http (baseline)',
    args: (port) => ['scripts/bench/baseline-server.mjs', String(port)],
    list: '/v1/pets?limit=20',
    post: '/v1/pets',
  },
  { id: 'mock-quiet', name: 'petstore-mock --quiet', args: mockArgs(['--quiet']), list: '/v1/pets?limit=20', post: '/v1/pets' },
  { id: 'mock-log', name: 'petstore-mock, default log to a pipe', args: mockArgs([]), list: '/v1/pets?limit=20', post: '/v1/pets', logSink: true },
  {
    id: 'json-server',
    name: 'json-server 0.17.4',
    list: '/pets?_limit=20',
    post: '/pets',
    // Its db.json is written back on every POST, so each start gets a fresh copy.
    args: (port) => {
      copyFileSync(DB_SEED, DB);
      return ['node_modules/json-server/lib/cli/bin.js', '--port', String(port), '--host', '127.0.0.1', '--quiet', DB];
    },
  },
];

// `--before DIR`: another checkout (built) whose mock the sequential client also measures, such as
// the commit before a change that could lengthen one request's latency.
const beforeAt = process.argv.indexOf('--before');
const BEFORE = beforeAt === -1 ? undefined : resolve(process.argv[beforeAt + 1] ?? '');
const SEQUENTIAL_REQUESTS = quick ? 2000 : 5000;
const SEQUENTIAL_SERVERS = [
  ...SERVERS.filter((s) => s.id !== 'json-server'),
  ...(BEFORE
    ? [
        {
          id: 'mock-before',
          name: `petstore-mock --quiet at ${commitOf(BEFORE)}`,
          args: (port) => [`${BEFORE}/bin/petstore-mock.js`, '--port', String(port), '--key', BENCH_KEY_SPEC, '--quiet'],
          list: '/v1/pets?limit=20',
        },
      ]
    : []),
];

const runStart = Date.now();
const log = (text) => process.stderr.write(`[${((Date.now() - runStart) / 1000).toFixed(0).padStart(3)} s] ${text}\n`);

/** Cold starts, interleaved between servers so that noise from the shared machine hits all alike. */
async function coldStarts() {
  const starts = Object.fromEntries(SERVERS.map((s) => [s.id, { startMs: [], idleRssMb: [] }]));
  for (let i = 0; i < COLD_STARTS; i++) {
    for (const server of SERVERS) {
      const running = await startServer(server, { logSink: server.logSink });
      await sleep(IDLE_SETTLE_MS);
      starts[server.id].startMs.push(running.startMs);
      starts[server.id].idleRssMb.push(rssMb(running.child.pid));
      await running.stop();
    }
    log(`cold start ${i + 1}/${COLD_STARTS}`);
  }
  return starts;
}

/**
 * Load in rounds: all servers of one operation run side by side (only one is loaded at a time) and
 * each round gives every server one short slice, in rotating order. On a machine shared with other
 * work, noise then falls on all servers alike, and each round's ratio compares slices taken
 * seconds apart.
 */
async function loadRounds() {
  const rounds = Object.fromEntries(SERVERS.map((s) => [s.id, { list: [], create: [], loadedRssMb: [] }]));
  for (const [kind, pick] of [
    ['list', (s) => ({ path: s.list })],
    // The mock keeps at most 10,000 created animals a session (docs/limits.md) and answers 507
    // past that; resetting the store every 100 ms keeps every create a 201.
    ['create', (s) => ({ path: s.post, method: 'POST', body: NEW_PET, resetEveryMs: s.id.startsWith('mock') ? 100 : undefined })],
  ]) {
    const running = [];
    for (const server of SERVERS) {
      const r = await startServer(server, { logSink: server.logSink });
      running.push({ server, r });
      await load(r.port, r.child.pid, { ...pick(server), connections: CONNECTIONS, seconds: 1 });
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = running.map((_, i) => running[(i + round) % running.length]);
      for (const { server, r } of order) {
        const measured = await load(r.port, r.child.pid, { ...pick(server), connections: CONNECTIONS, seconds: SECONDS });
        rounds[server.id][kind].push(measured);
      }
      log(
        `${kind} round ${round + 1}/${ROUNDS}: ${running.map(({ server }) => `${server.id} ${Math.round(rounds[server.id][kind][round].rps)}`).join(', ')} req/s`,
      );
    }
    for (const { server, r } of running) {
      rounds[server.id].loadedRssMb.push(rssMb(r.child.pid));
      await r.stop();
    }
  }
  return rounds;
}

/**
 * One sequential client's latency on the list, in rounds like the load: every server started,
 * then each round gives each (in rotating order) its run of requests one after another.
 */
async function sequentialRounds() {
  const running = [];
  for (const server of SEQUENTIAL_SERVERS) running.push({ server, r: await startServer(server, { logSink: server.logSink }) });
  const rounds = Object.fromEntries(SEQUENTIAL_SERVERS.map((s) => [s.id, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < running.length; i++) {
      const { server, r } = running[(i + round) % running.length];
      rounds[server.id].push(await sequential(r.port, { path: server.list, requests: SEQUENTIAL_REQUESTS }));
    }
    log(
      `sequential round ${round + 1}/${ROUNDS}: ${running.map(({ server }) => `${server.id} p99 ${Math.round(rounds[server.id][round].p99Us)} µs`).join(', ')}`,
    );
  }
  for (const { r } of running) await r.stop();
  return Object.fromEntries(
    SEQUENTIAL_SERVERS.map((s) => [
      s.id,
      {
        name: s.name,
        p50Us: median(rounds[s.id].map((m) => m.p50Us)),
        p90Us: median(rounds[s.id].map((m) => m.p90Us)),
        p99Us: median(rounds[s.id].map((m) => m.p99Us)),
        p999Us: median(rounds[s.id].map((m) => m.p999Us)),
        p99Ratio: median(rounds[s.id].map((m, i) => m.p99Us / rounds.baseline[i].p99Us)),
        rounds: rounds[s.id],
      },
    ]),
  );
}

/** With 50 connections on a key of 500 a minute, no window may let more than 500 through. */
async function limitCheck() {
  const perMinute = 500;
  const total = 2000;
  const mock = {
    name: 'petstore-mock --quiet',
    args: (port) => ['bin/petstore-mock.js', '--port', String(port), '--quiet', '--key', `limit-key:enterprise:${perMinute}:1000000`, '--key', BENCH_KEY_SPEC],
    list: '/v1/pets?limit=1',
  };
  const running = await startServer(mock);
  const [command, args] = pinned(LOAD_CORE, process.execPath, [
    `${ROOT}scripts/bench/limit-check.mjs`,
    String(running.port),
    'limit-key',
    String(total),
    String(CONNECTIONS),
  ]);
  const out = await outputOf(command, args, 'limit check');
  await running.stop();
  const result = JSON.parse(out);
  const worst = Math.max(...result.windows.map((w) => w.ok));
  const exact = result.windows.every((w) => w.ok <= perMinute) && result.failed === 0;
  log(`rate-limit check: ${result.windows.map((w) => `${w.ok} allowed / ${w.refused} refused`).join('; ')} (plan ${perMinute}/min)`);
  return { perMinute, total, connections: CONNECTIONS, ...result, mostAllowedInAWindow: worst, exact };
}

function summarise(starts, passes) {
  const rows = SERVERS.map((s) => {
    const p = passes[s.id];
    const pick = (kind, field) => median(p[kind].map((m) => m[field]));
    return {
      id: s.id,
      name: s.name,
      listRps: pick('list', 'rps'),
      listP50Ms: pick('list', 'latencyP50Ms'),
      listP99Ms: pick('list', 'latencyP99Ms'),
      listAvgMs: pick('list', 'latencyAvgMs'),
      listCpuUs: pick('list', 'cpuUsPerRequest'),
      createRps: pick('create', 'rps'),
      createP50Ms: pick('create', 'latencyP50Ms'),
      createP99Ms: pick('create', 'latencyP99Ms'),
      createAvgMs: pick('create', 'latencyAvgMs'),
      createCpuUs: pick('create', 'cpuUsPerRequest'),
      startMs: median(starts[s.id].startMs),
      idleRssMb: median(starts[s.id].idleRssMb),
      loadedRssMb: median(p.loadedRssMb),
      failures: ['list', 'create'].reduce((n, kind) => n + p[kind].reduce((m, r) => m + r.non2xx + r.errors, 0), 0),
    };
  });
  const base = rows[0];
  const perRound = (id, kind) => median(passes[id][kind].map((m, i) => m.rps / passes.baseline[kind][i].rps));
  for (const row of rows) {
    row.listShare = perRound(row.id, 'list');
    row.createShare = perRound(row.id, 'create');
    row.startRatio = row.startMs / base.startMs;
    row.rssRatio = row.idleRssMb / base.idleRssMb;
  }
  return rows;
}

log(`bench: ${ROUNDS} rounds of ${SECONDS} s slices per server and operation, ${COLD_STARTS} cold starts, ${CONNECTIONS} connections`);
const facts = machineFacts();
const starts = await coldStarts();
const passes = await loadRounds();
const oneClient = await sequentialRounds();
const limits = await limitCheck();
const rows = summarise(starts, passes);
const result = {
  facts,
  settings: {
    rounds: ROUNDS,
    coldStarts: COLD_STARTS,
    seconds: SECONDS,
    connections: CONNECTIONS,
    idleSettleMs: IDLE_SETTLE_MS,
    sequentialRequests: SEQUENTIAL_REQUESTS,
  },
  rows,
  sequential: oneClient,
  limits,
  raw: { starts, passes },
  durationS: Math.round((Date.now() - runStart) / 1000),
};
writeFileSync(`${ROOT}.bench/bench.json`, `${JSON.stringify(result, null, 2)}\n`);
const table = writeReport();
process.stdout.write(`${table}\n`);
log('wrote .bench/bench.json, docs/benchmarks.md and docs/benchmarks.svg');
