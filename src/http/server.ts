import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ApiHandler } from '../core/state/backend.js';
import { MockError, named, renderError } from '../core/errors.js';
import { listenFailure } from './listen-failure.js';
import { answerOnSocket, handleApiRequest, inLatency } from './node-adapter.js';
import { afterOwedAnswers, drain, type Drain } from './owed-answers.js';
import { closeIdleConnections } from './idle-connections.js';
import { API_CORS, answerClientError, refuseConnection } from './raw-answers.js';
import type { HttpOptions } from './options.js';

/** Open connections past which a new one is answered 503 `too_many_connections` and closed. */
export const DEFAULT_MAX_CONNECTIONS = 1_000;
/**
 * Milliseconds a connection may sit with nothing read or written before the idle sweep
 * (idle-connections.ts) closes it, most of all one whose client stopped reading an answer: without
 * it, each such socket held its answer (up to the largest list body) for as long as the client liked.
 */
export const DEFAULT_WRITE_TIMEOUT_MS = 30_000;
/**
 * Seconds a stopping server gives the answers in flight (`--drain-time`, `drainTime`). With the
 * command's lame duck (3 s on SIGTERM) it stays within `docker stop`'s 10 s before SIGKILL.
 */
export const DEFAULT_DRAIN_TIME_S = 5;

type AdminHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** A listening mock: its URL and a way to stop it. */
export interface RunningServer {
  server: Server;
  origin: string;
  /**
   * Stops: first a lame duck of `lameDuckS` seconds (0 by default), in which the server still
   * accepts and answers, every answer says `Connection: close` and `/__admin/health` answers 503,
   * so that a load balancer takes it out; then the drain of the answers in flight. `hurry`, once
   * aborted, ends the lame duck and cuts the drain at once (a second signal to the command).
   */
  close(lameDuckS?: number, hurry?: AbortSignal): Promise<void>;
}

/**
 * Starts the HTTP server: `/__admin` goes to the Express admin app (imported on its first
 * request, so start-up does not pay for Express), everything else to the lean API adapter.
 */
export function listen(engine: ApiHandler, options: HttpOptions): Promise<RunningServer> {
  let admin: Promise<AdminHandler> | undefined;
  // Set once close() is called: the drain in progress.
  let stopping: Drain | undefined;
  // From close() on, lame duck included: each answer ends its connection and says so.
  let closing = false;
  let closed: Promise<void> | undefined;
  // Sockets that have sent a whole request; Node closes those between requests itself on close.
  const served = new WeakSet<Socket>();
  // Sockets over the connection cap, already answered 503: whatever they send is not served.
  const refused = new WeakSet<Socket>();
  // While stopping, the last answer of each connection says Connection: close, and Node ends the
  // connection once it is written: the client learns from the answer itself not to send another
  // request on it, so none is reset. A request pipelined behind it moves the close to its own
  // answer while the earlier one is still unwritten, so that each gets its answer; one read after
  // a close was written is not processed (RFC 9112, section 9.6): its client sends it again.
  const lastAnswer = new WeakMap<Socket, ServerResponse>();
  const closingAnswers = new WeakSet<ServerResponse>();
  const endWith = (socket: Socket, res: ServerResponse): boolean => {
    const before = lastAnswer.get(socket);
    if (before !== undefined && closingAnswers.has(before)) {
      if (before.headersSent) return false;
      before.shouldKeepAlive = true;
      closingAnswers.delete(before);
    }
    if (res.shouldKeepAlive) {
      res.shouldKeepAlive = false;
      closingAnswers.add(res);
    }
    lastAnswer.set(socket, res);
    return true;
  };
  const dispatch = (req: IncomingMessage, res: ServerResponse, expectsContinue = false): void => {
    if (refused.has(req.socket)) return;
    served.add(req.socket);
    stopping?.settle(req.socket);
    if (closing && !endWith(req.socket, res)) {
      req.resume();
      return;
    }
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      missingHost(req, res);
      return;
    }
    const url = req.url ?? '/';
    if (url === '/__admin' || url.startsWith('/__admin/') || url.startsWith('/__admin?')) {
      if (expectsContinue) res.writeContinue();
      const state = options.admin;
      if (!state) {
        const answer = renderError(new MockError('route_not_found', named('this server was started without an admin API.')));
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
        return;
      }
      admin ??= import('./admin-api.js').then((m) => m.createAdminHandler(state, { ...options, stopping: () => closing }));
      admin
        .then((handle) => handle(req, res))
        .catch((error: unknown) => {
          const answer = renderError(
            new MockError('internal_error', named(`the admin API failed to load (${String(error)}); reinstall petstore-mock and report it if it persists.`)),
          );
          res.writeHead(answer.status, answer.headers);
          res.end(answer.body);
        });
      return;
    }
    handleApiRequest(engine, req, res, expectsContinue);
  };
  // Node's own answer to a missing Host is a bare 400; dispatch gives the catalogue's.
  const server = createServer({ keepAliveTimeout: 5000, requireHostHeader: false }, (req, res) => dispatch(req, res));
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  // Node answers an Expect other than 100-continue with a bare 417 of its own; like most servers,
  // the mock ignores an expectation it does not know and answers the request as usual.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => dispatch(req, res));
  // Expect: 100-continue: the API answers at once when the head settles the answer (401, 413,
  // 415, …), so the client does not upload a body only to have it refused; otherwise 100 Continue.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => dispatch(req, res, true));
  // A request the parser cannot read ends the connection, but only after the answers owed to the
  // requests before it, in order: a client pairs answers with requests by position, and an error
  // written ahead of them was taken for the answer to an earlier POST (which it then retried).
  const broken = new WeakSet<Socket>();
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    // The parser reports its error again for every chunk that follows; one answer is enough.
    if (broken.has(socket)) return;
    broken.add(socket);
    const answer = (): void => answerClientError(error, socket, engine.anonymousRateHeaders(socket.remoteAddress));
    if (error.code === 'ECONNRESET' || !socket.writable) answer();
    else afterOwedAnswers(socket, answer, true);
  });
  // Without this listener Node drops a CONNECT without a word; the mock answers it (405 or 404).
  // Upgrade requests need no listener: without one Node serves them as plain requests.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    if (!refused.has(socket)) answerOnSocket(engine, req, socket);
  });
  const sockets = new Set<Socket>();
  const writeTimeout = options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
  server.on('connection', (socket: Socket) => {
    // Refused with an answer rather than dropped, so the client learns why; the cap stays below
    // common descriptor limits, where fresh clients would otherwise get a bare ECONNRESET.
    if (sockets.size >= maxConnections) {
      refused.add(socket);
      refuseConnection(socket, maxConnections);
      // Outside the sweep, which counts only the connections served: a client that never reads its 503 still goes.
      socket.setTimeout(writeTimeout, () => socket.destroy());
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Node's own per-socket timeout stays off (server.timeout 0): the sweep does its work for less.
  server.timeout = 0;

  return new Promise((resolve, reject) => {
    const failed = (error: unknown): void => reject(listenFailure(error, options.port, options.host));
    server.once('error', failed);
    server.listen(options.port, options.host, () => {
      server.off('error', failed);
      server.once('close', closeIdleConnections(sockets, writeTimeout, inLatency));
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        server,
        origin: `http://${host}:${address.port}`,
        close: (lameDuckS = 0, hurry?: AbortSignal) => {
          closing = true;
          closed ??= lameDuck(lameDuckS * 1000, hurry).then(() => {
            const draining = drain(server, sockets, served, (options.drainTimeS ?? DEFAULT_DRAIN_TIME_S) * 1000);
            stopping = draining;
            const cut = (): void => draining.cut('stopping at once on a second signal');
            if (hurry?.aborted) cut();
            else hurry?.addEventListener('abort', cut, { once: true });
            return draining.done;
          });
          return closed;
        },
      });
    });
  });
}

/** The lame duck's wait, ended early by `hurry`; none at all for 0, so a plain close() starts its drain in the same turn. */
function lameDuck(ms: number, hurry: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 || hurry?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    hurry?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** HTTP/1.1 requires Host: 400 `bad_request` with the Error body (Node's own answer has none), then close. */
function missingHost(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const answer = renderError(
    new MockError('bad_request', 'An HTTP/1.1 request must carry a Host header (HTTP/1.1, RFC 9112 section 3.2); send one, as every client library does.'),
    { ...API_CORS, Connection: 'close' },
  );
  res.writeHead(answer.status, { ...answer.headers, 'Content-Length': String(Buffer.byteLength(answer.body)) });
  res.end(answer.body);
}
