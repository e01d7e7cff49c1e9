// Sends TOTAL requests over CONNECTIONS keep-alive connections with one key and prints, per
// rate-limit window (told apart by X-RateLimit-Reset), how many were let through and refused.
// Usage: node limit-check.mjs PORT KEY TOTAL CONNECTIONS
import http from 'node:http';

const [port, key, total, connections] = process.argv.slice(2).map((v, i) => (i === 1 ? v : Number(v)));
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const windows = new Map();
const codes = {};
let sent = 0;
let failed = 0;

function one() {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/v1/pets?limit=1', agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const reset = String(res.headers['x-ratelimit-reset']);
        const w = windows.get(reset) ?? { reset: Number(reset), ok: 0, refused: 0 };
        if (res.statusCode === 200) w.ok++;
        else {
          w.refused++;
          const code = res.statusCode === 429 ? JSON.parse(Buffer.concat(chunks).toString()).code : String(res.statusCode);
          codes[code] = (codes[code] ?? 0) + 1;
        }
        windows.set(reset, w);
        resolve();
      });
    });
    req.on('error', () => {
      failed++;
      resolve();
    });
  });
}

async function worker() {
  while (sent < total) {
    sent++;
    await one();
  }
}

await Promise.all(Array.from({ length: connections }, worker));
agent.destroy();
process.stdout.write(`${JSON.stringify({ windows: [...windows.values()], refusedCodes: codes, failed })}\n`);
