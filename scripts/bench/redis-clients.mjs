// The two maintained npm Redis clients on the mock's own API script: calls per second, client CPU
// per call and Redis commands per call, each driven alike (50 calls in flight). The mock uses the
// one this measurement and its failure handling favour; docs/scale-out.md says why.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { ROOT } from './lib.mjs';

async function scripts() {
  const out = await build({
    entryPoints: [`${ROOT}src/state-redis/scripts.ts`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
  });
  mkdirSync(`${ROOT}.bench`, { recursive: true });
  const file = `${ROOT}.bench/scripts.mjs`;
  writeFileSync(file, out.outputFiles[0].text);
  return import(file);
}

const PREFIX = '{bench-clients}';
const INIT = JSON.stringify({ frozen: false, usage: [], chaosSeed: 0, latencySeed: 0, nextId: 151 });
/** A list request of the bench key, as the engine sends it: one JSON object of named fields. */
const API_ARGS = [
  PREFIX,
  JSON.stringify({
    sid: 'default',
    set: 'start',
    max: 1000,
    journal: [],
    mode: 'take',
    bucket: 'key:bench',
    pm: 100000000,
    pd: 1000000000,
    enforce: 'yes',
    removalAt: 8.64e15,
    rule: { after: 10, ms: 300000, inFlight: 8 },
    steps: '',
    times: [],
    rep: false,
    chaos: [],
    lat: false,
    op: 'list',
    status: '',
    count: 0,
  }),
];

async function drive(call, total) {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < total) {
        next++;
        await call();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { callsPerSecond: total / seconds, clientCpuUsPerCall: (used.user + used.system) / total };
}

function evalshaCalls(port) {
  const text = spawnSync('redis-cli', ['-p', String(port), 'INFO', 'commandstats'], { encoding: 'utf8' }).stdout;
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (m && m[1] !== 'info' && m[1] !== 'config|resetstat') total += Number(m[2]);
  }
  return total;
}

/** Compares ioredis and node-redis against the Redis at `url`; `total` calls each. */
export async function compareClients(url, total) {
  const { API_SCRIPT } = await scripts();
  const port = new URL(url).port;
  const resetStats = () => spawnSync('redis-cli', ['-p', port, 'CONFIG', 'RESETSTAT']);
  const results = {};

  const { Redis } = await import('ioredis');
  const io = new Redis(url, { enableOfflineQueue: true });
  io.defineCommand('petApi', { numberOfKeys: 1, lua: API_SCRIPT });
  // A deployment as a replica's join leaves it: its record and the start settings.
  await io.hset(`${PREFIX}:deploy`, 'world', 'bench-clients');
  await io.set(`${PREFIX}:init:start`, INIT);
  await io.petApi(`${PREFIX}:s:default`, ...API_ARGS);
  resetStats();
  results.ioredis = await drive(() => io.petApi(`${PREFIX}:s:default`, ...API_ARGS), total);
  results.ioredis.commandsPerCall = evalshaCalls(port) / total;
  results.ioredis.version = (await import('ioredis/package.json', { with: { type: 'json' } })).default.version;
  io.disconnect();

  const { createClient } = await import('redis');
  const nr = createClient({ url });
  await nr.connect();
  const sha = await nr.scriptLoad(API_SCRIPT);
  const keys = [`${PREFIX}:s:default`];
  const args = API_ARGS.map(String);
  resetStats();
  results.nodeRedis = await drive(() => nr.evalSha(sha, { keys, arguments: args }), total);
  results.nodeRedis.commandsPerCall = evalshaCalls(port) / total;
  results.nodeRedis.version = (await import('redis/package.json', { with: { type: 'json' } })).default.version;
  await nr.quit();
  return results;
}
