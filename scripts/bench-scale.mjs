// npm run bench:scale: the mock with 100 and with 1,000,000 animals in the same run: list
// throughput with and without the status filter, one-animal lookups, RSS and seeding time.
// Loopback only, bounded (about two minutes), stops by itself. Writes .bench/scale.json and
// regenerates docs/benchmarks.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { BENCH_KEY_SPEC, ROOT, load, machineFacts, median, rssMb, sleep, startServer } from './bench/lib.mjs';
import { writeReport } from './bench/report.mjs';

const quick = process.argv.includes('--quick');
const SMALL = 100;
const BIG = 1_000_000;
const ROUNDS = quick ? 2 : 8;
const COLD_STARTS = quick ? 2 : 5;
const SECONDS = quick ? 1 : 2;
const CONNECTIONS = 50;

const server = (pets) => ({
  name: `petstore-mock --pets ${pets}`,
  args: (port) => ['dist/cli.js', '--port', String(port), '--quiet', '--pets', String(pets), '--key', BENCH_KEY_SPEC],
  list: '/v1/pets?limit=20',
});
const QUERIES = {
  list: { path: '/v1/pets?limit=20' },
  status: { path: '/v1/pets?limit=20&status=sold' },
  // An animal near the end of the store, so a lookup that walked the store would show it.
  get: (pets) => ({ path: `/v1/pets/${pets - 7}` }),
};

const runStart = Date.now();
const log = (text) => process.stderr.write(`[${((Date.now() - runStart) / 1000).toFixed(0).padStart(3)} s] ${text}\n`);
mkdirSync(`${ROOT}.bench`, { recursive: true });
const facts = machineFacts();

const raw = Object.fromEntries([SMALL, BIG].map((n) => [n, { startMs: [], idleRssMb: [], list: [], status: [], get: [] }]));
for (let i = 0; i < COLD_STARTS; i++) {
  for (const pets of [SMALL, BIG]) {
    const running = await startServer(server(pets));
    await sleep(1000);
    raw[pets].startMs.push(running.startMs);
    raw[pets].idleRssMb.push(rssMb(running.child.pid));
    await running.stop();
  }
  log(`cold start ${i + 1}/${COLD_STARTS}`);
}
// Both stores run side by side and are loaded in turn, so noise falls on both sides of a ratio.
const running = {};
for (const pets of [SMALL, BIG]) running[pets] = await startServer(server(pets));
const query = (kind, pets) => (kind === 'get' ? QUERIES.get(pets) : QUERIES[kind]);
for (const kind of ['list', 'status', 'get']) {
  for (const pets of [SMALL, BIG]) await load(running[pets].port, running[pets].child.pid, { ...query(kind, pets), connections: CONNECTIONS, seconds: 1 });
}
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of ['list', 'status', 'get']) {
    const order = round % 2 === 0 ? [SMALL, BIG] : [BIG, SMALL];
    for (const pets of order) {
      const measured = await load(running[pets].port, running[pets].child.pid, { ...query(kind, pets), connections: CONNECTIONS, seconds: SECONDS });
      raw[pets][kind].push(measured);
    }
  }
  log(
    `round ${round + 1}/${ROUNDS}: ${['list', 'status', 'get'].map((k) => `${k} ${Math.round(raw[SMALL][k][round].rps)} / ${Math.round(raw[BIG][k][round].rps)}`).join(', ')} req/s (${SMALL} / ${BIG})`,
  );
}
for (const pets of [SMALL, BIG]) await running[pets].stop();

const rows = [SMALL, BIG].map((pets) => {
  const r = raw[pets];
  const rps = (kind) => median(r[kind].map((m) => m.rps));
  const cpu = (kind) => median(r[kind].map((m) => m.cpuUsPerRequest));
  return {
    pets,
    startMs: median(r.startMs),
    idleRssMb: median(r.idleRssMb),
    listRps: rps('list'),
    statusRps: rps('status'),
    getRps: rps('get'),
    listCpuUs: cpu('list'),
    statusCpuUs: cpu('status'),
    getCpuUs: cpu('get'),
    failures: ['list', 'status', 'get'].reduce((n, kind) => n + r[kind].reduce((m, x) => m + x.non2xx + x.errors, 0), 0),
  };
});
const seedingS = (rows[1].startMs - rows[0].startMs) / 1000;
const ratio = (kind) => median(raw[BIG][kind].map((m, i) => m.rps / raw[SMALL][kind][i].rps));
const ratios = { list: ratio('list'), status: ratio('status'), get: ratio('get') };
const result = {
  facts,
  small: SMALL,
  big: BIG,
  settings: { rounds: ROUNDS, coldStarts: COLD_STARTS, seconds: SECONDS, connections: CONNECTIONS },
  rows,
  seedingS,
  ratios,
  raw,
  durationS: Math.round((Date.now() - runStart) / 1000),
};
writeFileSync(`${ROOT}.bench/scale.json`, `${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`${writeReport()}\n`);
log('wrote .bench/scale.json and docs/benchmarks.md');
