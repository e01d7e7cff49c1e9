// Small node:http servers that are not the API, or not all of it: verify says it could not run
// and why, rather than failing every rule.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { verify, VerifyCouldNotRun } from '../../src/index.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(listener: RequestListener): Promise<{ base: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
    listener(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

async function couldNotRun(base: string, options: { timeout?: number } = {}): Promise<VerifyCouldNotRun> {
  const error = await verify(base, { key: 'demo-pro', ...options }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(VerifyCouldNotRun);
  return error as VerifyCouldNotRun;
}

describe('verify against something that is not the API', () => {
  it('names a redirect and where it leads, following none', async () => {
    const { base, seen } = await serve((_req, res) => {
      res.writeHead(301, { location: 'https://api.example.com/v1/pets?limit=100' }).end();
    });
    const error = await couldNotRun(base);
    expect(error.kind).toBe('not-the-api');
    expect(error.message).toBe(
      'petstore-mock: could not run: GET /v1/pets?limit=100 answered 301, a redirect to https://api.example.com/v1/pets?limit=100; give the base URL it leads to.',
    );
    expect(seen).toEqual(['GET /v1/pets?limit=100 Bearer demo-pro']);
  });

  it('says a base URL whose list is a 404 is not the API', async () => {
    const { base } = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    });
    const error = await couldNotRun(base.replace(/\/v1$/, ''));
    expect(error.message).toMatch(/answered 404, so http:\/\/127\.0\.0\.1:\d+ is not the API's base URL; give the one that ends in \/v1/);
  });

  it('gives up on a service that does not answer within the timeout', async () => {
    const { base, seen } = await serve(() => undefined);
    const error = await couldNotRun(base, { timeout: 1 });
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(`petstore-mock: could not run: ${base} is unreachable (no answer within 1 s); check the URL and that the service is up.`);
    expect(seen).toHaveLength(1);
  });

  it('says the key was refused when every request with it is a 401, sending nothing more', async () => {
    const { base, seen } = await serve((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"unauthorized","message":"no","status":401}');
    });
    const error = await couldNotRun(base);
    expect(error.kind).toBe('key-refused');
    expect(error.message).toContain('answered 401 unauthorized); check --key.');
    expect(seen).toHaveLength(1);
  });
});
