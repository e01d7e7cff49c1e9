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

const SAMPLES = Number(process.env.ABUSE_SAMPLES ?? 2_000);
const child = spawn(process.execPath, ['dist/cli.js', '--port', '0', '--ready-json', '--quiet', '--key', 'bench:enterprise:1000000000:1000000000'], { stdio: ['ignore', 'pipe', 'inherit'] });
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

/** The normal client's latency while one connection per body keeps sending it. */
async function underLoad(load) {
  let abusing = true;
  const sent = {};
  const abusers = Object.entries(load).map(async ([what, body]) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    sent[what] = { requests: 0, statuses: {} };
    while (abusing) {
      const status = await send(agent, 'POST', '/v1/pets', body);
      sent[what].requests++;
      sent[what].statuses[status] = (sent[what].statuses[status] ?? 0) + 1;
    }
    agent.destroy();
  });
  const latency = await medianLatency(SAMPLES);
  abusing = false;
  await Promise.all(abusers);
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
console.log(JSON.stringify({ date: new Date().toISOString(), node: process.version, samples: SAMPLES, alone, costly, plain: sized, ratio: { costly: ratio(costly.median), plain: ratio(sized.median) } }, null, 2));
console.log(
  `\nbench:abuse: a normal client's median latency ${ms(alone.median)} alone; ${ms(costly.median)} (${ratio(costly.median)}x, p99 ${ms(costly.p99)}) while two connections send the costly bodies; ` +
    `${ms(sized.median)} (${ratio(sized.median)}x, p99 ${ms(sized.p99)}) while two send plain 1 MiB bodies.`,
);
