// The bench's yardstick: the least a node:http server can do for GET /v1/pets?limit=20 and
// POST /v1/pets (a bearer check, a fixed 20-animal body), so that other servers are measured
// as a share of it.
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const KEY = 'Bearer bench-key';
const statuses = ['available', 'pending', 'sold'];
const pets = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: (i % 12) + 1, status: statuses[i % 3] }));
const listBody = JSON.stringify(pets);
let nextId = 21;

const server = createServer((req, res) => {
  if (req.headers.authorization !== KEY) {
    res.writeHead(401, { 'Content-Type': 'application/json' });
    res.end('{"code":"missing_api_key","message":"no key","status":401}');
    return;
  }
  if (req.method === 'POST') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const body = JSON.stringify({ id: nextId++, name: input.name, categoryId: input.categoryId, status: input.status });
      res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(listBody) });
  res.end(listBody);
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}/v1\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
