// A small node:http server in front of a real mock that passes everything through except one
// deliberate fault: the test servers `verify` must catch, one broken rule each.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request on its way to the mock, as a fault may rewrite it. */
export interface ProxiedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
}

/** An answer on its way back, as a fault may rewrite it; `json` is the parsed body, if any. */
export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: any;
}

/** One deliberate fault: a rewrite of the request, of the answer, or both. */
export interface Fault {
  request?(request: ProxiedRequest): void;
  answer?(answer: ProxiedAnswer, request: ProxiedRequest): void;
}

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'content-encoding']);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** Starts the proxy on 127.0.0.1 in front of `origin`; `url` is its API base (…/v1). */
export async function faultProxy(origin: string, fault: Fault): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    void (async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && !HOP.has(name)) headers[name] = value;
      const request: ProxiedRequest = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', origin), headers, body: await readBody(req) };
      fault.request?.(request);
      const upstream = await fetch(new URL(request.url.pathname + request.url.search, origin), {
        method: request.method,
        headers: request.headers,
        body: request.method === 'GET' ? undefined : request.body,
      });
      const answer: ProxiedAnswer = { status: upstream.status, headers: {}, body: await upstream.text(), json: undefined };
      upstream.headers.forEach((value, name) => {
        if (!HOP.has(name)) answer.headers[name] = value;
      });
      try {
        answer.json = answer.body ? JSON.parse(answer.body) : undefined;
      } catch {
        answer.json = undefined;
      }
      const before = answer.body;
      const json = JSON.stringify(answer.json);
      fault.answer?.(answer, request);
      // A fault that changed the parsed body (and not the text) has its change written out.
      if (answer.body === before && answer.json !== undefined && JSON.stringify(answer.json) !== json) answer.body = JSON.stringify(answer.json);
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    })().catch((error: unknown) => {
      res.writeHead(599);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
