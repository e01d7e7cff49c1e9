// Answers written straight on a socket, outside any request Node hands over: what its parser
// refused, connections over the cap, and the head of a CONNECT answer.
import type { Socket } from 'node:net';
import { COMMON_HEADERS, errorBody } from '../core/errors.js';

/** What the API grants any origin on answers given outside the core (see core/pipeline/cors.ts). */
export const API_CORS = { 'Access-Control-Allow-Origin': '*' };

/** A raw error answer's first headers: its type, then its length, in the order these answers always had. */
const bodyHeaders = (body: string): Record<string, string> => ({ 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });

/** Writes a whole answer on a bare socket and ends the connection (its length added last when `headers` lack it). */
export function endRaw(socket: Socket, status: number, reason: string, headers: Record<string, string>, body: string): void {
  const lines = Object.entries({ ...headers, 'Content-Length': headers['Content-Length'] ?? String(Buffer.byteLength(body)), Connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${lines}\r\n${body}`);
}

/** What answerClientError answers for each of Node's parser and timeout errors. */
function clientErrorAnswer(code: string | undefined): [status: number, code: string, reason: string, message: string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'headers_too_large', 'Request Header Fields Too Large', 'The request headers are larger than 16 KiB; send fewer or shorter headers.'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [
        408,
        'request_timeout',
        'Request Timeout',
        'petstore-mock did not receive the whole request in time (headers within 60 s, the whole request within 300 s); send it again without pausing.',
      ];
    default:
      return [400, 'bad_request', 'Bad Request', 'The request is not valid HTTP/1.1.'];
  }
}

/**
 * Answers what Node's HTTP parser refused before any request existed: headers over its limit
 * get 431, a request that did not arrive in time 408, anything else unparseable 400, all with
 * the Error body.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket, extraHeaders: Record<string, string> = {}): void {
  // A client that reset the connection is gone: there is nobody to answer.
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, code, reason, message] = clientErrorAnswer(error.code);
  const body = errorBody(code, message, status);
  endRaw(socket, status, reason, { ...bodyHeaders(body), ...extraHeaders, ...API_CORS, ...COMMON_HEADERS }, body);
}

/** Answers a connection over the cap with 503 `too_many_connections` and closes it. */
export function refuseConnection(socket: Socket, maxConnections: number): void {
  socket.on('error', () => socket.destroy());
  const body = errorBody(
    'too_many_connections',
    `petstore-mock holds its maximum of ${maxConnections} open connections; close idle ones (or reuse them with keep-alive) and retry.`,
    503,
  );
  endRaw(socket, 503, 'Service Unavailable', { ...bodyHeaders(body), 'Retry-After': '1', ...COMMON_HEADERS }, body);
}
