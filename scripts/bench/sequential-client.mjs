// One client, one keep-alive connection, one request at a time: what a test suite or a script
// calling the mock feels as latency, which batching answers per event-loop turn could lengthen.
// `node sequential-client.mjs PORT PATH REQUESTS` prints one JSON line of latency percentiles (µs),
// timed from the request's write to the last byte of its answer. Loopback only; it stops by itself.
import { connect } from 'node:net';

const [port, path, count] = [Number(process.argv[2]), process.argv[3] ?? '/v1/pets?limit=20', Number(process.argv[4] ?? 5000)];
const WARMUP = Math.min(1000, count);
const request = Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer bench-key\r\n\r\n`);
const HEAD_END = Buffer.from('\r\n\r\n');
const socket = connect(port, '127.0.0.1');
socket.setNoDelay(true);

const latencies = new Float64Array(count);
let sent = -WARMUP;
let started = 0n;
let buffer = Buffer.alloc(0);

/** The length of the first whole answer in the buffer, or 0 while it is incomplete. */
function answerLength() {
  const head = buffer.indexOf(HEAD_END);
  if (head === -1) return 0;
  const text = buffer.subarray(0, head).toString('latin1');
  if (!/^HTTP\/1\.1 200 /.test(text)) throw new Error(`sequential client: not a 200: ${text.split('\r\n')[0]}`);
  const length = /\r\ncontent-length: *(\d+)/i.exec(text);
  if (length) return buffer.length >= head + 4 + Number(length[1]) ? head + 4 + Number(length[1]) : 0;
  const end = buffer.indexOf('\r\n0\r\n\r\n', head);
  return end === -1 ? 0 : end + 7;
}

function send() {
  started = process.hrtime.bigint();
  socket.write(request);
}

socket.on('connect', send);
socket.on('data', (chunk) => {
  buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
  const length = answerLength();
  if (length === 0) return;
  const us = Number(process.hrtime.bigint() - started) / 1000;
  buffer = buffer.subarray(length);
  if (sent >= 0) latencies[sent] = us;
  sent++;
  if (sent < count) return send();
  socket.end();
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  process.stdout.write(`${JSON.stringify({ requests: count, p50Us: at(0.5), p90Us: at(0.9), p99Us: at(0.99), p999Us: at(0.999), maxUs: sorted.at(-1) })}\n`);
});
socket.on('error', (error) => {
  process.stderr.write(`sequential client: ${error.message}\n`);
  process.exit(1);
});
