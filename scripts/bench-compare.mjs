// npm run bench:compare -- DIR: this checkout's mock against another checkout's (DIR, built with
// `npm run build`), beside the bare node:http baseline, in the same run. Each round gives every
// server one slice in rotating order, so noise on a shared machine falls on all alike; the report
// is the median per-round share of the baseline's requests per second, and CPU per request as a
// multiple of the baseline's. Loopback only, bounded, stops by itself.
import { resolve } from 'node:path';
import { BENCH_KEY_SPEC, NEW_PET, load, median, startServer } from './bench/lib.mjs';

const other = process.argv[2];
// A second checkout to measure in place of this one (both built), for bisecting a cost.
const mine = process.argv[3] ?? '.';
if (!other) {
  process.stderr.write(
    'usage: npm run bench:compare -- DIR [MINE]   (DIR: another checkout of petstore-mock, built; MINE: one to measure instead of this one)\n',
  );
  process.exit(1);
}
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const SECONDS = 2;
const CONNECTIONS = 50;
const mockArgs = (dir) => (port) => [resolve(dir, 'dist/cli.js'), '--port', String(port), '--quiet', '--key', BENCH_KEY_SPEC];
const SERVERS = [
  { id: 'baseline', args: (port) => ['scripts/bench/baseline-server.mjs', String(port)], list: '/v1/pets?limit=20', post: '/v1/pets' },
  { id: 'other', args: mockArgs(other), list: '/v1/pets?limit=20', post: '/v1/pets' },
  { id: 'this', args: mockArgs(mine), list: '/v1/pets?limit=20', post: '/v1/pets' },
];

const KINDS = (process.env.KINDS ?? 'list,create').split(',');
const result = {};
for (const [kind, pick] of [
  ['list', (s) => ({ path: s.list })],
  ['create', (s) => ({ path: s.post, method: 'POST', body: NEW_PET, resetEveryMs: s.id === 'baseline' ? undefined : 100 })],
].filter(([kind]) => KINDS.includes(kind))) {
  const running = [];
  for (const server of SERVERS) {
    const r = await startServer(server);
    running.push({ server, r });
    await load(r.port, r.child.pid, { ...pick(server), connections: CONNECTIONS, seconds: 1 });
  }
  const slices = Object.fromEntries(SERVERS.map((s) => [s.id, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < running.length; i++) {
      const { server, r } = running[(i + round) % running.length];
      slices[server.id].push(await load(r.port, r.child.pid, { ...pick(server), connections: CONNECTIONS, seconds: SECONDS }));
    }
  }
  for (const { r } of running) await r.stop();
  const base = slices.baseline;
  result[kind] = Object.fromEntries(
    ['other', 'this'].map((id) => [
      id,
      {
        share: median(slices[id].map((m, i) => m.rps / base[i].rps)),
        cpuRatio: median(slices[id].map((m, i) => m.cpuUsPerRequest / base[i].cpuUsPerRequest)),
        rps: median(slices[id].map((m) => m.rps)),
        cpuUs: median(slices[id].map((m) => m.cpuUsPerRequest)),
      },
    ]),
  );
  result[kind].baseline = { rps: median(base.map((m) => m.rps)), cpuUs: median(base.map((m) => m.cpuUsPerRequest)) };
}
process.stdout.write(`${JSON.stringify({ other: resolve(other), rounds: ROUNDS, ...result })}\n`);
