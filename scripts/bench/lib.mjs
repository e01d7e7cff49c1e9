// Shared pieces of the benches: starting pinned servers, timing their first answer, reading their
// memory and CPU time from /proc, and driving them with autocannon from another process.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH_KEY = 'bench-key';
/** A custom-limit key that never throttles, so the benches measure serving, not refusing. */
export const BENCH_KEY_SPEC = `${BENCH_KEY}:enterprise:100000000:1000000000`;
export const AUTH = `Bearer ${BENCH_KEY}`;
export const NEW_PET = '{"name":"Rex","categoryId":3,"status":"available"}';

const AUTOCANNON = `${ROOT}node_modules/autocannon/autocannon.js`;
const HAS_TASKSET = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const CPUS = os.cpus().length;
/** Servers run on the first core, the load generator on the second (when there are two). */
export const SERVER_CORE = '0';
export const LOAD_CORE = CPUS > 1 ? '1' : '0';

/** The command line, pinned to a core when taskset exists. */
export function pinned(core, command, args) {
  return HAS_TASKSET ? ['taskset', ['-c', core, command, ...args]] : [command, args];
}

// Servers still running when the bench is interrupted are stopped with it.
const children = new Set();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A port nobody listens on right now, on loopback. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** One GET with a fresh connection; resolves with the status, or 0 when nothing answered. */
export function getStatus(port, path, headers = { authorization: AUTH }) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => req.destroy());
  });
}

/**
 * Starts a server pinned to the server core and waits for its first 200 on `path`. Returns the
 * child and the milliseconds from spawn to that answer. `logSink` drains stdout through a pipe,
 * as a CI job reading the server's output would; otherwise stdout goes to /dev/null.
 */
export async function startServer(server, { logSink = false, timeoutMs = 60_000 } = {}) {
  const port = await freePort();
  const [command, args] = pinned(SERVER_CORE, process.execPath, server.args(port));
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', logSink ? 'pipe' : 'ignore', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  if (logSink) child.stdout.on('data', () => {});
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${server.name} exited before answering: ${stderr}`);
    if (performance.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${server.name} gave no 200 on ${server.list} within ${timeoutMs} ms: ${stderr}`);
    }
    if ((await getStatus(port, server.list)) === 200) break;
    await sleep(2);
  }
  const startMs = performance.now() - started;
  return {
    child,
    port,
    startMs,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident memory of a process, in MB. */
export function rssMb(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

const TICK_MS = 1000 / (Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100);

/** CPU time (user + system) a process has used so far, in milliseconds. */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * Runs autocannon as its own process on the load core against one server and returns what it
 * measured, plus the server's CPU time per answered request.
 */
export async function load(port, pid, { path, method = 'GET', body, connections = 50, seconds = 4, resetEveryMs }) {
  const args = [AUTOCANNON, '--json', '-n', '-c', String(connections), '-d', String(seconds), '-m', method, '-H', `Authorization=${AUTH}`];
  if (body !== undefined) args.push('-H', 'Content-Type=application/json', '-b', body);
  args.push(`http://127.0.0.1:${port}${path}`);
  const [command, commandArgs] = pinned(LOAD_CORE, process.execPath, args);
  const cpuBefore = cpuMs(pid);
  const resets = resetEveryMs
    ? setInterval(() => {
        fetch(`http://127.0.0.1:${port}/__admin/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } }).catch(() => undefined);
      }, resetEveryMs)
    : undefined;
  const out = await outputOf(command, commandArgs, 'autocannon', 'ignore');
  clearInterval(resets);
  const cpu = cpuMs(pid) - cpuBefore;
  const result = JSON.parse(out);
  const answered = result['2xx'] + result.non2xx;
  return {
    rps: result.requests.total / result.duration,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    latencyAvgMs: result.latency.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    cpuUsPerRequest: answered > 0 ? (cpu * 1000) / answered : NaN,
  };
}

/**
 * One sequential client (one connection, one request at a time) on the load core against one
 * server: latency percentiles in µs over `requests` answers (scripts/bench/sequential-client.mjs).
 */
export async function sequential(port, { path, requests = 5000 }) {
  const [command, commandArgs] = pinned(LOAD_CORE, process.execPath, [`${ROOT}scripts/bench/sequential-client.mjs`, String(port), path, String(requests)]);
  return JSON.parse(await outputOf(command, commandArgs, 'the sequential client'));
}

/** Runs a load-side process to its end and gives its stdout; a non-zero exit rejects, naming `what`. */
export function outputOf(command, args, what, stderr = 'inherit') {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', stderr] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`${what} exited with ${code}`))));
  });
}

/** What the numbers were measured on. */
export function machineFacts() {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    pinned: HAS_TASKSET ? `servers on core ${SERVER_CORE}, load generator on core ${LOAD_CORE} (taskset)` : 'not pinned (no taskset)',
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
    commit: commitOf(ROOT),
  };
}

/** The commit a checkout is at, with `+changes` when its tracked files differ from it. */
export function commitOf(dir) {
  try {
    const at = execFileSync('git', ['-C', dir, 'log', '-1', '--format=%h'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return dirty ? `${at}+changes` : at;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
