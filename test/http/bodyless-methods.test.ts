// The methods whose body the mock never reads are one list (src/core/input/body.ts), and both front
// ends, the node:http server and the Fetch handler, keep to it: same answer, same journal entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODYLESS_METHODS } from '../../src/core/input/body.js';
import { createFetchHandler, startMock, type JournalEntry, type MockFetchHandler, type RunningMock } from '../../src/index.js';
import { rawRequest } from '../support/raw.js';

const BODY = '{"name":"Rex","categoryId":3}';
let server: RunningMock;
let handler: MockFetchHandler;

beforeAll(async () => {
  server = await startMock();
  handler = createFetchHandler();
  server.recordDetails();
  handler.recordDetails();
});
afterAll(() => server.close());

/** What a front end made of a request: its status, code and what the journal kept of its body. */
function seen(entry: JournalEntry | undefined): { status?: number; code?: string; body?: string; bodyBytes?: number } {
  return { status: entry?.status, code: entry?.code, body: entry?.details?.request?.body, bodyBytes: entry?.details?.request?.bodyBytes };
}

const init = (method: string): RequestInit => ({
  method,
  body: BODY,
  headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json' },
});

describe('the body-less methods, in both front ends', () => {
  it('are GET, HEAD, OPTIONS and DELETE', () => {
    expect([...BODYLESS_METHODS].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS']);
  });

  // Fetch cannot send a body with GET or HEAD; those are sent to the server on a raw socket below.
  it.each([
    // An animal no other case reads: a DELETE the document defines may remove it.
    ['DELETE', '/v1/pets/5', false],
    ['OPTIONS', '/v1/pets', false],
    ['POST', '/v1/pets', true],
  ])('%s %s with a body: the same answer and journal entry from the server and the Fetch handler', async (method, path, kept) => {
    const viaServer = await fetch(`${server.url}${path.slice(3)}`, init(method));
    const viaHandler = await handler(new Request(`https://api.example.test${path}`, init(method)));
    expect(viaHandler.status).toBe(viaServer.status);
    const fromServer = seen(server.requests({ method, details: true }).at(-1));
    expect(seen(handler.requests({ method, details: true }).at(-1))).toEqual(fromServer);
    expect(fromServer.body).toBe(kept ? BODY : undefined);
  });

  it.each(['GET', 'HEAD'])('%s with a body on the server: answered without reading it, as Fetch would send it', async (method) => {
    const target = method === 'GET' ? '/v1/pets/1' : '/v1/pets/2';
    const reply = await rawRequest(
      server,
      `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-pro\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\nConnection: close\r\n\r\n${BODY}`,
    );
    expect(reply.status).toBe(200);
    const entry = server.requests({ method, path: target, details: true }).at(-1);
    expect(entry?.details?.request).toBeDefined();
    expect(entry?.details?.request?.body).toBeUndefined();
    expect(entry?.details?.request?.bodyBytes).toBeUndefined();
  });
});
