// npm run bench:redis: what a shared state costs. One Redis-backed instance against the in-memory
// mock, two instances on one Redis together, Redis commands, scripts and script time per API
// request (from Redis's own INFO commandstats) and Redis CPU per request; and the two npm Redis
// clients side by side on the mock's own script. Loopback only, bounded (about two minutes),
// stops by itself. Writes .bench/redis.json and regenerates docs/benchmarks.md.
// `--before PATH/dist/cli.js` also measures an earlier build in the same rounds (on a Redis of its
// own, one instance, turn about with this build), so a change is judged within one run.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BENCH_KEY_SPEC, NEW_PET, ROOT, cpuMs, freePort, load, machineFacts, median, sleep, startServer } from './bench/lib.mjs';
import { compareClients } from './bench/redis-clients.mjs';
import { writeReport } from './bench/report.mjs';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 2 : 5;
const SECONDS = quick ? 1 : 2;
const CONNECTIONS = 50;
const beforeAt = process.argv.indexOf('--before');
const BEFORE_CLI = beforeAt > 0 ? resolve(process.argv[beforeAt + 1] ?? '') : undefined;

const runStart = Date.now();
const log = (text) => process.stderr.write(`[${((Date.now() - runStart) / 1000).toFixed(0).padStart(3)} s] ${text}\n`);

/** A redis-server of the bench's own, persistence off, stopped at the end. */
async function startRedis() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', () => reject(new Error(`redis-server did not start: ${out}`)));
  });
  process.once('exit', () => child.kill('SIGKILL'));
  const cli = (...args) => spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).stdout;
  return { port, pid: child.pid, url: `redis://127.0.0.1:${port}/0`, cli, stop: () => child.kill('SIGTERM') };
}

/** Calls and µs of every command Redis ran since the last CONFIG RESETSTAT, by command. */
function commandStats(redis) {
  const calls = {};
  const usec = {};
  for (const line of redis.cli('INFO', 'commandstats').split('\n')) {
    const m = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line.trim());
    if (m) {
      calls[m[1]] = Number(m[2]);
      usec[m[1]] = Number(m[3]);
    }
  }
  return { calls, usec };
}

const SCRIPT_COMMANDS = ['evalsha', 'eval', 'evalsha_ro', 'eval_ro', 'fcall', 'fcall_ro'];

const OPERATIONS = {
  list: { path: '/v1/pets?limit=20' },
  get: { path: '/v1/pets/1' },
  create: { path: '/v1/pets', method: 'POST', body: NEW_PET },
};

const redis = await startRedis();
const mockArgs =
  (extra, cli = 'dist/cli.js') =>
  (port) => [cli, '--port', String(port), '--quiet', '--key', BENCH_KEY_SPEC, ...extra];
const memory = await startServer({ name: 'in-memory', args: mockArgs([]), list: '/v1/pets?limit=20' });
const sharedA = await startServer({ name: 'redis A', args: mockArgs(['--state', redis.url]), list: '/v1/pets?limit=20' });
const sharedB = await startServer({ name: 'redis B', args: mockArgs(['--state', redis.url]), list: '/v1/pets?limit=20' });
const beforeRedis = BEFORE_CLI ? await startRedis() : undefined;
const before = beforeRedis
  ? await startServer({ name: 'redis, earlier build', args: mockArgs(['--state', beforeRedis.url], BEFORE_CLI), list: '/v1/pets?limit=20' })
  : undefined;
log(`redis-server on ${redis.port}; in-memory, and two instances on it, started${before ? `; the earlier build ${BEFORE_CLI} on its own Redis` : ''}`);

/** One instance alone on its Redis for a slice: its load figures and what Redis counted per answered request. */
async function sharedSlice(server, on, request) {
  on.cli('CONFIG', 'RESETSTAT');
  const cpuBefore = cpuMs(on.pid);
  const run = await load(server.port, server.child.pid, { ...request, connections: CONNECTIONS, seconds: SECONDS });
  const redisCpu = cpuMs(on.pid) - cpuBefore;
  const { calls, usec } = commandStats(on);
  const total = Object.entries(calls)
    .filter(([name]) => name !== 'config|resetstat' && name !== 'info')
    .reduce((sum, [, n]) => sum + n, 0);
  const answered = run.ok + run.non2xx;
  return {
    run,
    calls,
    commands: total / answered,
    scripts: SCRIPT_COMMANDS.reduce((sum, name) => sum + (calls[name] ?? 0), 0) / answered,
    // Time Redis spent inside scripts (the commands they run included), as Redis itself counts it.
    scriptUs: SCRIPT_COMMANDS.reduce((sum, name) => sum + (usec[name] ?? 0), 0) / answered,
    redisCpuUs: (redisCpu * 1000) / answered,
  };
}

const results = {};
for (const [op, request] of Object.entries(OPERATIONS)) {
  const r = { memory: [], one: [], two: [], commandsPerRequest: [], roundTripsPerRequest: [], scriptUsPerRequest: [], redisCpuUsPerRequest: [], commands: {} };
  const b = { one: [], commandsPerRequest: [], roundTripsPerRequest: [], scriptUsPerRequest: [], redisCpuUsPerRequest: [] };
  // Warm-up: JIT, connections, and the scripts loaded into Redis.
  for (const s of [memory, sharedA, sharedB, ...(before ? [before] : [])])
    await load(s.port, s.child.pid, { ...request, connections: CONNECTIONS, seconds: 1 });
  for (let round = 0; round < ROUNDS; round++) {
    r.memory.push(await load(memory.port, memory.child.pid, { ...request, connections: CONNECTIONS, seconds: SECONDS }));
    // The earlier build goes first in every other round, so neither build always follows the other.
    const earlier = async () => {
      if (!before) return;
      const m = await sharedSlice(before, beforeRedis, request);
      b.one.push(m.run);
      b.commandsPerRequest.push(m.commands);
      b.roundTripsPerRequest.push(m.scripts);
      b.scriptUsPerRequest.push(m.scriptUs);
      b.redisCpuUsPerRequest.push(m.redisCpuUs);
    };
    if (round % 2 === 1) await earlier();
    const one = await sharedSlice(sharedA, redis, request);
    if (round % 2 === 0) await earlier();
    r.one.push(one.run);
    r.commandsPerRequest.push(one.commands);
    r.roundTripsPerRequest.push(one.scripts);
    r.scriptUsPerRequest.push(one.scriptUs);
    r.redisCpuUsPerRequest.push(one.redisCpuUs);
    r.commands = one.calls;
    // Two instances together, each driven by its own load generator with half the connections.
    const [a, bb] = await Promise.all([sharedA, sharedB].map((s) => load(s.port, s.child.pid, { ...request, connections: CONNECTIONS / 2, seconds: SECONDS })));
    r.two.push({ rps: a.rps + bb.rps, errors: a.errors + bb.errors, non2xx: a.non2xx + bb.non2xx });
    log(
      `${op} round ${round + 1}/${ROUNDS}: in-memory ${Math.round(r.memory.at(-1).rps)}, one on Redis ${Math.round(one.run.rps)}, two on Redis ${Math.round(r.two.at(-1).rps)} req/s; ${one.commands.toFixed(2)} commands, ${one.scripts.toFixed(2)} scripts, ${one.scriptUs.toFixed(1)} script µs per request` +
        (before
          ? `; earlier build ${b.commandsPerRequest.at(-1).toFixed(2)} commands, ${b.roundTripsPerRequest.at(-1).toFixed(2)} scripts, ${b.scriptUsPerRequest.at(-1).toFixed(1)} script µs`
          : ''),
    );
  }
  results[op] = {
    memoryRps: median(r.memory.map((m) => m.rps)),
    oneRps: median(r.one.map((m) => m.rps)),
    twoRps: median(r.two.map((m) => m.rps)),
    oneShare: median(r.one.map((m, i) => m.rps / r.memory[i].rps)),
    twoShare: median(r.two.map((m, i) => m.rps / r.memory[i].rps)),
    oneLatencyP50Ms: median(r.one.map((m) => m.latencyP50Ms)),
    oneLatencyP99Ms: median(r.one.map((m) => m.latencyP99Ms)),
    memoryLatencyP50Ms: median(r.memory.map((m) => m.latencyP50Ms)),
    mockCpuUsPerRequest: median(r.one.map((m) => m.cpuUsPerRequest)),
    memoryCpuUsPerRequest: median(r.memory.map((m) => m.cpuUsPerRequest)),
    commandsPerRequest: median(r.commandsPerRequest),
    roundTripsPerRequest: median(r.roundTripsPerRequest),
    scriptUsPerRequest: median(r.scriptUsPerRequest),
    scriptUsPerRequestEach: r.scriptUsPerRequest,
    redisCpuUsPerRequest: median(r.redisCpuUsPerRequest),
    commandsOfLastRound: r.commands,
    errors: [...r.one, ...r.two].reduce((sum, m) => sum + m.errors, 0),
    non2xx: [...r.one, ...r.two].reduce((sum, m) => sum + m.non2xx, 0),
  };
  if (before) {
    results[op].before = {
      cli: BEFORE_CLI,
      oneRps: median(b.one.map((m) => m.rps)),
      mockCpuUsPerRequest: median(b.one.map((m) => m.cpuUsPerRequest)),
      commandsPerRequest: median(b.commandsPerRequest),
      roundTripsPerRequest: median(b.roundTripsPerRequest),
      scriptUsPerRequest: median(b.scriptUsPerRequest),
      scriptUsPerRequestEach: b.scriptUsPerRequest,
      redisCpuUsPerRequest: median(b.redisCpuUsPerRequest),
      // Per round, this build's script time over the earlier build's: the median of the ratios.
      scriptUsRatio: median(r.scriptUsPerRequest.map((us, i) => us / b.scriptUsPerRequest[i])),
      errors: b.one.reduce((sum, m) => sum + m.errors + m.non2xx, 0),
    };
    log(
      `${op}: script µs per request ${results[op].scriptUsPerRequest.toFixed(1)} against ${results[op].before.scriptUsPerRequest.toFixed(1)} for the earlier build (ratio ${results[op].before.scriptUsRatio.toFixed(2)})`,
    );
  }
}
for (const s of [memory, sharedA, sharedB, ...(before ? [before] : [])]) await s.stop();
beforeRedis?.stop();
log('client comparison (ioredis and node-redis on the API script)');
const clients = await compareClients(redis.url, quick ? 5000 : 20000);
redis.stop();

mkdirSync(`${ROOT}.bench`, { recursive: true });
const out = {
  facts: machineFacts(),
  settings: {
    rounds: ROUNDS,
    seconds: SECONDS,
    connections: CONNECTIONS,
    before: BEFORE_CLI,
    redis: spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.trim(),
  },
  results,
  clients,
};
writeFileSync(`${ROOT}.bench/redis.json`, `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`${writeReport()}\n`);
await sleep(0);
