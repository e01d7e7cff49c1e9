// A head Node refuses to write (a header it cannot send) is answered 500 internal_error; the
// process and the connection's next requests live on. Scenarios are checked when read, so only a
// bug could bring such a header this far: this holds the adapter's last line of defence.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeResponse } from '../../src/http/node-adapter.js';

let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const bad = req.url?.slice(1) ?? '';
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (bad === 'value') headers['X-Done'] = 'done \u2713';
    if (bad === 'split') headers['X-Split'] = 'a\r\nb: c';
    if (bad === 'name') headers['X Bad'] = 'x';
    writeResponse(req, res, { status: 200, headers, body: '{"ok":true}' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('a head Node refuses to write', () => {
  it.each(['value', 'split', 'name'])('(%s) is answered 500 internal_error, and the server answers the next request', async (bad) => {
    const failed = await fetch(`${origin}/${bad}`);
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { code: string }).code).toBe('internal_error');
    const next = await fetch(`${origin}/fine`);
    expect([next.status, await next.text()]).toEqual([200, '{"ok":true}']);
  });
});
