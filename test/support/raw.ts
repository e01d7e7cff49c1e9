import { connect } from 'node:net';
import type { RunningMock } from '../../src/index.js';
import { at } from './checked.js';

/** A response read off a raw socket. */
export interface RawReply {
  status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  json: any;
}

/**
 * Sends bytes exactly as given over a fresh TCP connection and reads the first answer, for
 * inputs fetch refuses to send (duplicate headers, raw bytes in the path, bad percent-encoding,
 * `..` segments). The request should ask for `Connection: close` or the answer is cut at
 * Content-Length.
 */
export function rawRequest(mock: RunningMock, request: string | Buffer, timeoutMs = 10_000): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(mock.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${String(request).slice(0, 80)}`));
    }, timeoutMs);
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve(parseReply(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (complete(Buffer.concat(chunks))) done();
    });
    socket.on('end', done);
    socket.on('error', (error) => {
      // A reset after a full answer (the server closes on 413) still leaves the answer readable.
      if (chunks.length > 0) done();
      else {
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.write(request);
  });
}

/** The head and body of the final answer, after any interim 1xx answers (100 Continue). */
function split(buffer: Buffer): { head: string; body: Buffer } | undefined {
  let rest = buffer;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const head = rest.subarray(0, end).toString('latin1');
    if (!/^HTTP\/1\.[01] 1\d\d /.test(head)) return { head, body: rest.subarray(end + 4) };
    rest = rest.subarray(end + 4);
  }
}

function complete(buffer: Buffer): boolean {
  const parts = split(buffer);
  if (!parts) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(parts.head);
  return length !== null && parts.body.length >= Number(length[1]);
}

function parseReply(buffer: Buffer): RawReply {
  const parts = split(buffer);
  if (!parts) throw new Error(`not an HTTP answer: ${JSON.stringify(buffer.toString('latin1').slice(0, 200))}`);
  const [statusLine = '', ...lines] = parts.head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const length = headers['content-length'];
  const body = parts.body.subarray(0, length === undefined ? undefined : Number(length)).toString('utf8');
  let json: unknown;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {
    json = undefined;
  }
  return { status: Number(at(statusLine.split(' '), 1)), headers, body, json };
}

/** A GET request line and headers as raw text, with `Connection: close`. */
export function rawGet(target: string, headerLines: string[] = ['Authorization: Bearer demo-free']): string {
  return `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headerLines.map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n`;
}

/** What a client that sent `Expect: 100-continue` saw: whether 100 Continue came, then the final answer. */
export interface ContinueReply {
  continued: boolean;
  reply: RawReply;
  /** Body bytes the client uploaded (none when the final answer came first). */
  uploaded: number;
}

/**
 * Sends a request head with `Expect: 100-continue` and acts as a careful client: the body goes
 * out only after `100 Continue`; a final answer that comes first ends the exchange unsent.
 */
export function expectContinue(mock: RunningMock, head: string, body: Buffer, timeoutMs = 10_000): Promise<ContinueReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(mock.port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    let continued = false;
    let uploaded = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${head.split('\r\n')[0]}`));
    }, timeoutMs);
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve({ continued, reply: parseReply(buffer), uploaded });
      } catch (error) {
        reject(error);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!continued && /^HTTP\/1\.1 100 [^\r]*\r\n\r\n/.test(buffer.toString('latin1'))) {
        continued = true;
        uploaded = body.length;
        socket.write(body);
      }
      if (complete(buffer)) finish();
    });
    socket.on('end', finish);
    socket.on('error', (error) => {
      if (buffer.length > 0) finish();
      else {
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.write(head);
  });
}

/**
 * Sends bytes (in the chunks given) over one connection and reads every answer until the server
 * closes it or `timeoutMs` passes, in the order they came: for pipelines.
 */
export function rawExchange(
  mock: RunningMock,
  chunks: readonly (string | Buffer)[],
  timeoutMs = 10_000,
): Promise<{ replies: RawReply[]; rest: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(mock.port, '127.0.0.1');
    const received: Buffer[] = [];
    let closed = false;
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      let buffer = Buffer.concat(received);
      const replies: RawReply[] = [];
      for (;;) {
        const parts = split(buffer);
        if (!parts) break;
        const length = /\r\ncontent-length: *(\d+)/i.exec(parts.head);
        const bodyLength = length ? Number(length[1]) : parts.body.length;
        if (parts.body.length < bodyLength) break;
        const consumed = buffer.length - parts.body.length + bodyLength;
        replies.push(parseReply(buffer.subarray(0, consumed)));
        buffer = buffer.subarray(consumed);
      }
      resolve({ replies, rest: buffer.toString('latin1'), closed });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('error', () => undefined);
    for (const chunk of chunks) socket.write(chunk);
  });
}
