// npm run bench:abuse: what costly bodies do to another client. A normal client asks for
// GET /v1/pets?limit=20 one request at a time, first alone, then while two connections keep
// sending the two bodies that once cost most CPU (a 650 KB body of 60,000 keys, a categoryId of
// 1,000,000 digits), and, for scale, while two connections send plain 1 MiB bodies of the same
// size (white space, then a mistake at the end); it reports the normal client's median latency in
// each phase and the ratios to the unloaded one.
// Loopback only, bounded (about 30 s), stops by itself. No test depends on these timings.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

// The abusive clients run in worker threads, so that building and sending their megabytes never
// delays the normal client's own timing in this thread.
if (!isMainThread) {
  const { port, body } = workerData;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let abusing = true;
  parentPort.on('message', () => (abusing = false));
  const sent = { requests: 0, statuses: {} };
  while (abusing) {
    const status = await new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, agent, method: 'POST', path: '/v1/pets', headers: { authorization: 'Bearer bench', 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    sent.requests++;
    sent.statuses[status] = (sent.statuses[status] ?? 0) + 1;
  }
  agent.destroy();
  parentPort.postMessage(sent);
  process.exit(0);
}

const SAMPLES = Number(process.env.ABUSE_SAMPLES ?? 2_000);
const child = spawn(process.execPath, ['dist/cli.js', '--port', '0', '--ready-json', '--quiet', '--key', 'bench:enterprise:1000000000:1000000000'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const hardStop = setTimeout(() => {
  console.error('bench:abuse: still running after 120 s; stopping.');
  child.kill('SIGKILL');
  process.exit(1);
}, 120_000);
const port = await new Promise((resolve, reject) => {
  child.on('exit', (code) => reject(new Error(`the mock exited early with ${code}`)));
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.includes('"event":"ready"')) resolve(JSON.parse(line).port);
  });
});

function send(agent, method, path, body) {
  return new Promise((resolve, reject) => {
    const headers = { authorization: 'Bearer bench' };
    if (body) headers['content-type'] = 'application/json';
    const req = request({ host: '127.0.0.1', port, agent, method, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function medianLatency(samples) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  for (let i = 0; i < samples; i++) {
    const started = process.hrtime.bigint();
    const status = await send(agent, 'GET', '/v1/pets?limit=20');
    if (status !== 200) throw new Error(`the normal client got ${status}`);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1], p99: times[Math.floor(times.length * 0.99)] };
}

const bodies = {
  '60,000 keys': `{"name":"a","categoryId":1,${Array.from({ length: 60_000 }, (_, i) => `"k${i}":1`).join(',')}}`,
  '1,000,000-digit categoryId': `{"name":"a","categoryId":${'9'.repeat(1_000_000)}}`,
};

/** The normal client's latency while one connection per body, each in its own thread, keeps sending it. */
async function underLoad(load) {
  const workers = Object.entries(load).map(([what, body]) => ({ what, worker: new Worker(new URL(import.meta.url), { workerData: { port, body } }) }));
  const latency = await medianLatency(SAMPLES);
  const sent = {};
  await Promise.all(
    workers.map(
      ({ what, worker }) =>
        new Promise((resolve) => {
          worker.once('message', (counts) => {
            sent[what] = counts;
            resolve();
          });
          worker.postMessage('stop');
        }),
    ),
  );
  return { ...latency, sent };
}

const plain = `{"name":"a","categoryId":1${' '.repeat(1_048_000)}x}`;
await medianLatency(300); // warm-up
const alone = await medianLatency(SAMPLES);
const costly = await underLoad(bodies);
const sized = await underLoad({ 'plain 1 MiB (a)': plain, 'plain 1 MiB (b)': plain });
child.kill('SIGTERM');
clearTimeout(hardStop);

const ms = (n) => `${n.toFixed(2)} ms`;
const ratio = (n) => Number((n / alone.median).toFixed(2));
const ratios = (phase) => ({ median: ratio(phase.median), p99: Number((phase.p99 / alone.p99).toFixed(2)) });
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      samples: SAMPLES,
      alone,
      costly,
      plain: sized,
      ratio: { costly: ratios(costly), plain: ratios(sized) },
    },
    null,
    2,
  ),
);
console.log(
  `\nbench:abuse: a normal client's median latency ${ms(alone.median)} alone (p99 ${ms(alone.p99)}); ${ms(costly.median)} (${ratio(costly.median)}x, p99 ${ms(costly.p99)}) while two connections send the costly bodies; ` +
    `${ms(sized.median)} (${ratio(sized.median)}x, p99 ${ms(sized.p99)}) while two send plain 1 MiB bodies.`,
);
