// Turns the latest .bench/*.json into docs/benchmarks.md and docs/benchmarks.svg, and returns a
// plain-text table for the terminal.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { ROOT } from './lib.mjs';

const TARGETS = { list: 0.75, create: 0.4, start: 1.5, rss: 1.5, rss1M: 400, scale: 0.9 };

const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const fixed = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
const pct = (n) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : '–');
const times = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '–');
const mark = (ok) => (ok ? 'met' : '**not met**');

/** The median over rounds of one server's req/s against another's in the same round. */
function versus(bench, id, otherId, kind) {
  const mine = bench.raw.passes[id][kind];
  const theirs = bench.raw.passes[otherId][kind];
  const ratios = mine.map((m, i) => m.rps / theirs[i].rps).sort((a, b) => a - b);
  const mid = ratios.length >> 1;
  return ratios.length % 2 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
}

function machineLines(facts, note) {
  return [
    `- Date: ${facts.date.slice(0, 16).replace('T', ' ')} UTC${facts.commit ? `; commit ${facts.commit}` : ''}`,
    `- Machine: ${facts.cpu}, ${facts.cores} cores, ${facts.memoryGb} GB, ${facts.os}; Node ${facts.node}`,
    `- Placement: ${facts.pinned}; load average at start ${facts.loadAverage.join(' / ')}`,
    `- ${note}`,
  ];
}

function benchSection(bench) {
  const { rows, settings, limits } = bench;
  const base = rows[0];
  const mock = rows.find((r) => r.id === 'mock-quiet');
  const logged = rows.find((r) => r.id === 'mock-log');
  const lines = [
    '## Against the baseline and a peer (`npm run bench`)',
    '',
    ...machineLines(
      bench.facts,
      'The machine was shared with other developers running tests while this ran, so absolute numbers move from run to run; the ratios compare servers measured in the same run, interleaved.',
    ),
    `- Method: for each operation all servers run side by side, each warmed up for 1 s; then ${settings.rounds} rounds give every server, in rotating order, a ${settings.seconds} s slice of load from autocannon (a separate process on the other core) with ${settings.connections} keep-alive connections. req/s is the median over rounds; a share is the median of the per-round ratios to the baseline, so that noise from the shared machine falls on both sides of each ratio (a share therefore need not equal the ratio of two req/s medians). Start time is spawn to the first 200 on the list call (median of ${settings.coldStarts} cold starts, polled every 2 ms); idle RSS is read ${settings.idleSettleMs} ms after that answer. CPU µs per request is the server's user + system time over the answers it gave, which the load generator's own limits do not skew. autocannon reports latency percentiles in whole milliseconds.`,
    '- Requests: `GET /v1/pets?limit=20` and `POST /v1/pets` with `Authorization: Bearer bench-key` (json-server: `GET /pets?_limit=20`, `POST /pets`); the mock runs with `--key bench-key:enterprise:100000000:1000000000` so that it never throttles, with rate-limit accounting, all headers and the journal on.',
    '',
    '| server | GET req/s | share | GET p50 / p99 ms | GET CPU µs/req | POST req/s | share | POST p50 / p99 ms | start ms | × baseline | idle RSS MB | × baseline | failed answers |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${int(r.listRps)} | ${pct(r.listShare)} | ${r.listP50Ms} / ${r.listP99Ms} | ${fixed(r.listCpuUs)} | ${int(r.createRps)} | ${pct(r.createShare)} | ${r.createP50Ms} / ${r.createP99Ms} | ${int(r.startMs)} | ${times(r.startRatio)} | ${fixed(r.idleRssMb)} | ${times(r.rssRatio)} | ${r.failures} |`,
    ),
    '',
    '![req/s and start time per server](benchmarks.svg)',
    '',
    '### Targets (ratios from this run)',
    '',
    '| target | measured | |',
    '|---|--:|---|',
    `| GET list ≥ ${pct(TARGETS.list)} of baseline req/s | ${pct(mock.listShare)} (by CPU per request: ${pct(base.listCpuUs / mock.listCpuUs)}) | ${mark(mock.listShare >= TARGETS.list)} |`,
    `| POST ≥ ${pct(TARGETS.create)} of baseline req/s | ${pct(mock.createShare)} (by CPU per request: ${pct(base.createCpuUs / mock.createCpuUs)}) | ${mark(mock.createShare >= TARGETS.create)} |`,
    `| start to first answer ≤ ${TARGETS.start}× baseline | ${times(mock.startRatio)} | ${mark(mock.startRatio <= TARGETS.start)} |`,
    `| idle RSS ≤ ${TARGETS.rss}× baseline | ${times(mock.rssRatio)} | ${mark(mock.rssRatio <= TARGETS.rss)} |`,
    `| rate limit exact with ${limits.connections} connections (≤ ${limits.perMinute} per minute window) | most allowed in a window: ${limits.mostAllowedInAWindow} | ${mark(limits.exact)} |`,
    '',
    `The default request log (pretty lines on stdout, read here through a pipe; batched once per event-loop turn, at most 100 lines a second and one summary line for the rest of a busy second) ran GET at ${pct(versus(bench, 'mock-log', 'mock-quiet', 'list'))} and POST at ${pct(versus(bench, 'mock-log', 'mock-quiet', 'create'))} of \`--quiet\` (medians of per-round ratios), at ${fixed(logged.listCpuUs)} against ${fixed(mock.listCpuUs)} CPU µs per GET.`,
    '',
    `json-server writes its whole db.json on every POST, so its POST figure falls from round to round as the file grows.`,
    '',
    `Rate-limit check: ${limits.total} requests over ${limits.connections} connections with a key of ${limits.perMinute} per minute, grouped by the \`X-RateLimit-Reset\` of each answer: ${limits.windows.map((w) => `${w.ok} allowed and ${w.refused} refused with reset ${new Date(w.reset * 1000).toISOString().slice(11, 19)} UTC`).join('; ')}. Refusals by code: ${
      Object.entries(limits.refusedCodes)
        .map(([c, n]) => `${c} ${n}`)
        .join(', ') || 'none'
    }; once the key is banned for sending while limited, its answers carry the ban's end as their reset.`,
    '',
    ...sequentialLines(bench),
  ];
  return lines;
}

/** One sequential client's latency: what a test calling the mock one request at a time waits. */
function sequentialLines({ sequential, settings }) {
  if (!sequential) return [];
  const us = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
  return [
    '### One sequential client',
    '',
    `One client on the other core, one keep-alive connection, one \`GET /v1/pets?limit=20\` at a time, timed from its write to the last byte of its answer (scripts/bench/sequential-client.mjs): ${settings.sequentialRequests.toLocaleString('en-US')} requests per round after 1,000 unmeasured, ${settings.rounds} rounds in rotating order with all servers running; percentiles are medians over rounds, and the p99 ratio the median of per-round ratios to the baseline.`,
    '',
    '| server | p50 µs | p90 µs | p99 µs | p99.9 µs | p99 × baseline |',
    '|---|--:|--:|--:|--:|--:|',
    ...Object.values(sequential).map((s) => `| ${s.name} | ${us(s.p50Us)} | ${us(s.p90Us)} | ${us(s.p99Us)} | ${us(s.p999Us)} | ${times(s.p99Ratio)} |`),
    '',
  ];
}

function scaleSection(scale) {
  const { rows } = scale;
  const small = rows.find((r) => r.pets === scale.small);
  const big = rows.find((r) => r.pets === scale.big);
  return [
    '## Store size (`npm run bench:scale`)',
    '',
    ...machineLines(scale.facts, 'Shared machine, as above; compare within the run.'),
    `- Method: the mock (\`--quiet\`) with ${int(scale.small)} and with ${int(scale.big)} generated animals (\`--pets\`), both running side by side and loaded in turn like the main bench (${scale.settings.rounds} rounds of ${scale.settings.seconds} s slices per query, ${scale.settings.connections} connections, medians; ratios are medians of per-round ratios). Seeding time is the start to first answer of the large store less that of the small one.`,
    '',
    '| animals | start to first answer ms | idle RSS MB | GET ?limit=20 req/s (CPU µs/req) | GET ?limit=20&status=sold req/s (CPU µs/req) | GET /pets/{id} req/s (CPU µs/req) | failed answers |',
    '|--:|--:|--:|--:|--:|--:|--:|',
    ...rows.map(
      (r) =>
        `| ${int(r.pets)} | ${int(r.startMs)} | ${fixed(r.idleRssMb)} | ${int(r.listRps)} (${fixed(r.listCpuUs)}) | ${int(r.statusRps)} (${fixed(r.statusCpuUs)}) | ${int(r.getRps)} (${fixed(r.getCpuUs)}) | ${r.failures} |`,
    ),
    '',
    '| target | measured | |',
    '|---|--:|---|',
    `| list req/s with ${int(scale.big)} ≥ ${pct(TARGETS.scale)} of ${int(scale.small)} | ${pct(scale.ratios.list)} (CPU per request: ${pct(small.listCpuUs / big.listCpuUs)}) | ${mark(scale.ratios.list >= TARGETS.scale)} |`,
    `| status-filtered list req/s with ${int(scale.big)} ≥ ${pct(TARGETS.scale)} of ${int(scale.small)} | ${pct(scale.ratios.status)} (CPU per request: ${pct(small.statusCpuUs / big.statusCpuUs)}) | ${mark(scale.ratios.status >= TARGETS.scale)} |`,
    `| lookup by id req/s with ${int(scale.big)}, against ${int(scale.small)} | ${pct(scale.ratios.get)} (CPU per request: ${pct(small.getCpuUs / big.getCpuUs)}) | (no target) |`,
    `| RSS with ${int(scale.big)} animals < ${TARGETS.rss1M} MB | ${fixed(big.idleRssMb)} MB | ${mark(big.idleRssMb < TARGETS.rss1M)} |`,
    `| seeding ${int(scale.big)} animals takes seconds | ${fixed(scale.seedingS, 2)} s | ${mark(scale.seedingS < 10)} |`,
    '',
  ];
}

function bar(x, y, width, height, fill, label) {
  return `<rect x="${x}" y="${y}" width="${Math.max(1, width).toFixed(1)}" height="${height}" fill="${fill}"/><text x="${(x + Math.max(1, width) + 4).toFixed(1)}" y="${y + height - 3}" font-size="11">${label}</text>`;
}

/** Two panels: req/s (GET and POST) and start time, one row per server. */
function chart(bench) {
  const rows = bench.rows;
  const rowH = 44;
  const top = 64;
  const labelW = 250;
  const panelW = 330;
  const height = top + rows.length * rowH + 40;
  const width = labelW + panelW * 2 + 90;
  const maxRps = Math.max(...rows.flatMap((r) => [r.listRps, r.createRps]));
  const maxStart = Math.max(...rows.map((r) => r.startMs));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="10" y="22" font-size="15" font-weight="bold">petstore-mock benchmarks, ${bench.facts.date.slice(0, 10)} (${bench.facts.cores} cores, Node ${bench.facts.node}, shared machine)</text>`,
    `<text x="${labelW}" y="50" font-size="12" font-weight="bold">req/s: <tspan fill="#2b6cb0">GET /v1/pets?limit=20</tspan>, <tspan fill="#dd6b20">POST /v1/pets</tspan></text>`,
    `<text x="${labelW + panelW + 60}" y="50" font-size="12" font-weight="bold" fill="#2f855a">start to first answer, ms</text>`,
  ];
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    parts.push(`<text x="10" y="${y + 20}" font-size="12">${r.name}</text>`);
    parts.push(bar(labelW, y + 2, (r.listRps / maxRps) * (panelW - 60), 16, '#2b6cb0', `${int(r.listRps)} req/s, share ${pct(r.listShare)}`));
    parts.push(bar(labelW, y + 20, (r.createRps / maxRps) * (panelW - 60), 16, '#dd6b20', `${int(r.createRps)} req/s, share ${pct(r.createShare)}`));
    parts.push(bar(labelW + panelW + 60, y + 8, (r.startMs / maxStart) * (panelW - 80), 20, '#2f855a', `${int(r.startMs)} ms (${times(r.startRatio)})`));
  });
  parts.push(
    `<text x="10" y="${height - 12}" font-size="11" fill="#555">Medians of ${bench.settings.rounds} rounds and ${bench.settings.coldStarts} cold starts; shares (medians of per-round ratios) and × are against the bare node:http baseline of the same run. Generated by npm run bench.</text>`,
  );
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** Section texts of the current docs/benchmarks.md by heading, so a bench whose results are not here keeps its figures. */
function publishedSections() {
  const file = `${ROOT}docs/benchmarks.md`;
  const sections = new Map();
  if (!existsSync(file)) return sections;
  for (const part of readFileSync(file, 'utf8')
    .split(/^(?=## )/m)
    .slice(1))
    sections.set(part.split('\n')[0], part.trimEnd().split('\n').concat(''));
  return sections;
}

const REDIS_HEADING = '## Shared state on Redis (`npm run bench:redis`)';

function redisSection(redis) {
  const { results, clients, settings } = redis;
  const ops = [
    ['list', 'GET /v1/pets?limit=20'],
    ['get', 'GET /v1/pets/1'],
    ['create', 'POST /v1/pets'],
  ];
  const lines = [
    REDIS_HEADING,
    '',
    ...machineLines(redis.facts, 'Shared machine, as above; compare within the run. Redis runs unpinned next to the mock, as a sidecar would.'),
    `- Method: one redis-server (${settings.redis.split(' ').slice(0, 3).join(' ')}, persistence off) on loopback; the in-memory mock and two instances started with \`--state\` on that Redis, all \`--quiet\` with the never-throttling bench key. Per operation, after a 1 s warm-up each, ${settings.rounds} rounds of ${settings.seconds} s slices with ${settings.connections} connections: the in-memory mock, then one Redis instance alone, then both Redis instances at once (each with its own load generator and half the connections). Shares are medians of per-round ratios to the in-memory mock. Script calls (EVALSHA), the µs Redis spent in them, and commands per request come from Redis's \`INFO commandstats\` over the one-instance slice (reset before it); commands include those a script runs inside Redis. Redis CPU per request is the redis-server process's user + system time over that slice.`,
    '',
    '| request | in-memory req/s | one instance on Redis req/s | share | two instances together req/s | share | scripts per request | commands in Redis per request | script µs/req | Redis CPU µs/req | mock CPU µs/req (in-memory) | p50 / p99 ms (in-memory p50) | failed answers |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...ops.map(([op, label]) => {
      const r = results[op];
      return `| \`${label}\` | ${int(r.memoryRps)} | ${int(r.oneRps)} | ${pct(r.oneShare)} | ${int(r.twoRps)} | ${pct(r.twoShare)} | ${fixed(r.roundTripsPerRequest ?? NaN, 2)} | ${fixed(r.commandsPerRequest, 1)} | ${fixed(r.scriptUsPerRequest ?? NaN)} | ${fixed(r.redisCpuUsPerRequest)} | ${fixed(r.mockCpuUsPerRequest)} (${fixed(r.memoryCpuUsPerRequest)}) | ${r.oneLatencyP50Ms} / ${r.oneLatencyP99Ms} (${r.memoryLatencyP50Ms}) | ${r.errors + r.non2xx} |`;
    }),
    '',
  ];
  if (clients) {
    lines.push(
      "The two maintained npm clients on the mock's own API script (a list request, 50 calls in flight, in one process):",
      '',
      '| client | calls/s | client CPU µs/call | commands in Redis per call |',
      '|---|--:|--:|--:|',
      `| ioredis ${clients.ioredis.version} | ${int(clients.ioredis.callsPerSecond)} | ${fixed(clients.ioredis.clientCpuUsPerCall)} | ${fixed(clients.ioredis.commandsPerCall, 1)} |`,
      `| redis (node-redis) ${clients.nodeRedis.version} | ${int(clients.nodeRedis.callsPerSecond)} | ${fixed(clients.nodeRedis.clientCpuUsPerCall)} | ${fixed(clients.nodeRedis.commandsPerCall, 1)} |`,
      '',
    );
  }
  return lines;
}

/** Regenerates the docs from the latest results and returns a terminal summary. */
export function writeReport() {
  const bench = readJson(`${ROOT}.bench/bench.json`);
  const scale = readJson(`${ROOT}.bench/scale.json`);
  const redis = readJson(`${ROOT}.bench/redis.json`);
  const published = publishedSections();
  const kept = (heading) => [...published.entries()].find(([h]) => h.startsWith(heading))?.[1] ?? [];
  const lines = [
    '# Benchmarks',
    '',
    'Generated by `npm run bench`, `npm run bench:scale` and `npm run bench:redis` from their latest results in `.bench/` (a section whose results are not there keeps its published figures); do not edit by hand. No timed assertion is part of `npm test`: speed is measured here only. Runs of two commits side by side, before and after a change, are in [performance.md](performance.md#before-and-after-a-change).',
    '',
  ];
  lines.push(...(bench ? benchSection(bench) : kept('## Against the baseline')));
  lines.push(...(scale ? scaleSection(scale) : kept('## Store size')));
  lines.push(...(redis ? redisSection(redis) : kept(REDIS_HEADING)));
  mkdirSync(`${ROOT}docs`, { recursive: true });
  writeFileSync(`${ROOT}docs/benchmarks.md`, `${lines.join('\n').trimEnd()}\n`);
  if (bench) writeFileSync(`${ROOT}docs/benchmarks.svg`, chart(bench));
  const terminal = [];
  if (bench) {
    terminal.push('server                                   GET req/s  share   POST req/s  share  start ms   ×    idle MB   ×');
    for (const r of bench.rows) {
      terminal.push(
        `${r.name.padEnd(40)} ${int(r.listRps).padStart(9)} ${pct(r.listShare).padStart(6)} ${int(r.createRps).padStart(11)} ${pct(r.createShare).padStart(6)} ${int(r.startMs).padStart(8)} ${times(r.startRatio).padStart(6)} ${fixed(r.idleRssMb).padStart(8)} ${times(r.rssRatio).padStart(6)}`,
      );
    }
    terminal.push(
      `rate limit: most allowed in a window ${bench.limits.mostAllowedInAWindow} of ${bench.limits.perMinute} (${bench.limits.exact ? 'exact' : 'NOT exact'})`,
    );
  }
  if (scale) {
    for (const r of scale.rows)
      terminal.push(
        `${int(r.pets).padStart(10)} animals: start ${int(r.startMs)} ms, RSS ${fixed(r.idleRssMb)} MB, list ${int(r.listRps)} req/s, status ${int(r.statusRps)} req/s, get ${int(r.getRps)} req/s`,
      );
    terminal.push(`seeding ${int(scale.big)} animals: ${fixed(scale.seedingS, 2)} s`);
  }
  if (redis) {
    for (const [op, r] of Object.entries(redis.results))
      terminal.push(
        `${op.padEnd(7)} in-memory ${int(r.memoryRps)} req/s; one on Redis ${int(r.oneRps)} (${pct(r.oneShare)}); two on Redis ${int(r.twoRps)} (${pct(r.twoShare)}); ${fixed(r.roundTripsPerRequest, 2)} scripts, ${fixed(r.commandsPerRequest, 1)} commands, ${fixed(r.scriptUsPerRequest ?? NaN)} script µs, ${fixed(r.redisCpuUsPerRequest)} µs Redis CPU per request`,
      );
  }
  return terminal.join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) process.stdout.write(`${writeReport()}\n`);
