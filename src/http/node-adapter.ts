import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { andThen } from '../core/maybe.js';
import { BODYLESS_METHODS, MAX_BODY_BYTES } from '../core/input/body.js';
import { MAX_TARGET_BYTES, targetTooLong } from '../core/input/request-target.js';
import type { ApiHandler } from '../core/state/backend.js';
import { renderError } from '../core/errors.js';
import { API_CORS, endRaw } from './raw-answers.js';
import { socketArrival, useConnection } from './arrival.js';
import { endThisTurn } from './end-of-turn.js';
import type { CoreRequest, CoreResponse } from '../core/types.js';

/** The scheme and authority of an absolute-form target (`GET http://host/v1/pets`), which HTTP/1.1 servers must accept. */
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/** Turns a Node request into a core request; the body is read only for methods that carry one. */
function toCoreRequest(req: IncomingMessage, fullTarget: string): CoreRequest {
  const authority = ABSOLUTE_FORM.exec(fullTarget);
  const target = authority ? fullTarget.slice(authority[0].length) || '/' : fullTarget;
  const q = target.indexOf('?');
  const connection = useConnection(req.socket);
  return {
    method: req.method ?? 'GET',
    path: q === -1 ? target : target.slice(0, q),
    query: q === -1 ? '' : target.slice(q + 1),
    headers: req.headers,
    rawHeaders: req.rawHeaders,
    remoteAddress: req.socket.remoteAddress,
    arrival: socketArrival(),
    connection: connection.id,
    connectionUse: connection.uses,
  };
}

/**
 * Serves one API request from the core. Bodies are collected up to the 1 MiB limit; past it the
 * rest is not buffered, the core answers 413 and the connection is closed after the answer.
 */
export function handleApiRequest(engine: ApiHandler, req: IncomingMessage, res: ServerResponse, expectsContinue = false): void {
  const target = req.url ?? '/';
  const core = toCoreRequest(req, target);
  if (target.length > MAX_TARGET_BYTES) {
    req.resume();
    const error = targetTooLong(target.length);
    const answer = safely(() => engine.refuse({ ...core, path: '/', query: '' }, error));
    respond(req, res, expectsContinue ? closing(answer) : answer);
    return;
  }
  if (expectsContinue) {
    if (settledByHead(engine, core)) {
      // The head settles it: answer now, and close, since the body the client may still send is not read.
      core.bodyTooLarge = Number(req.headers['content-length']) > MAX_BODY_BYTES;
      req.resume();
      respond(req, res, closing(safely(() => engine.handle(core))));
      return;
    }
    res.writeContinue();
  }
  if (BODYLESS_METHODS.has(core.method)) {
    req.resume();
    respond(
      req,
      res,
      safely(() => engine.handle(core)),
    );
    return;
  }
  readBody(req, (body, tooLarge) => {
    core.body = body;
    core.bodyTooLarge = tooLarge;
    const answer = safely(() => engine.handle(core));
    respond(req, res, tooLarge ? closing(answer) : answer);
  });
}

/** Whether the head settles the answer; a check that fails sends `100 Continue` and lets `handle` answer. */
function settledByHead(engine: ApiHandler, core: CoreRequest): boolean {
  try {
    return engine.answeredBeforeBody?.(core) === true;
  } catch {
    return false;
  }
}

/**
 * The core promises never to throw; should a bug break that promise, the client still gets a
 * 500 with the Error body and the process lives on to answer the next request.
 */
function safely(produce: () => CoreResponse | Promise<CoreResponse>): CoreResponse | Promise<CoreResponse> {
  try {
    return produce();
  } catch (error) {
    return renderError(error, API_CORS);
  }
}

/** The answer with `Connection: close`, after a body too large to read to its end. */
function closing(answer: CoreResponse | Promise<CoreResponse>): CoreResponse | Promise<CoreResponse> {
  const close = (response: CoreResponse): CoreResponse => {
    response.headers.Connection = 'close';
    return response;
  };
  return andThen(answer, close);
}

/**
 * Writes the core's answer: at once when the core answered synchronously (the in-memory path),
 * when the promise settles for a shared state, which answers later.
 */
function respond(req: IncomingMessage, res: ServerResponse, answer: CoreResponse | Promise<CoreResponse>): void {
  void andThen(
    answer,
    (response) => writeResponse(req, res, response),
    (error: unknown) => writeResponse(req, res, renderError(error, API_CORS)),
  );
}

function readBody(req: IncomingMessage, done: (body: Buffer, tooLarge: boolean) => void): void {
  const declared = Number(req.headers['content-length']);
  if (declared > MAX_BODY_BYTES) {
    req.resume();
    done(Buffer.alloc(0), true);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (tooLarge: boolean): void => {
    if (finished) return;
    finished = true;
    done(tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks, size), tooLarge);
  };
  req.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      chunks.length = 0;
      finish(true);
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => finish(false));
  // A client that goes away mid-body gets no answer; there is nobody to answer.
  req.on('error', () => {
    finished = true;
  });
}

/** Sockets with answers held back by a scenario's latency, which the idle sweep must not count. */
const delaying = new WeakMap<Socket, number>();

/** Whether an answer on this socket is waiting out a scenario's latency. */
export function inLatency(socket: Socket): boolean {
  return (delaying.get(socket) ?? 0) > 0;
}

/** Writes a core response, acting out its latency and connection fault. */
export function writeResponse(req: IncomingMessage, res: ServerResponse, response: CoreResponse): void {
  if (response.delayMs !== undefined && response.delayMs > 0) {
    // A scenario's latency is no client's idleness: the idle sweep waits until the answer is written.
    const socket = req.socket;
    delaying.set(socket, (delaying.get(socket) ?? 0) + 1);
    const timer = setTimeout(() => writeNow(req, res, response), response.delayMs);
    res.on('close', () => {
      clearTimeout(timer);
      delaying.set(socket, (delaying.get(socket) ?? 1) - 1);
    });
    return;
  }
  writeNow(req, res, response);
}

function writeNow(req: IncomingMessage, res: ServerResponse, response: CoreResponse): void {
  if (res.destroyed || res.writableEnded) return;
  const socket = req.socket as Socket;
  switch (response.fault) {
    case 'reset':
    case 'empty':
      afterEarlierAnswers(res, socket, response.fault);
      return;
    case 'truncate': {
      const body = Buffer.from(response.body ?? '{}');
      if (!writeHead(res, response.status, { ...response.headers, 'Content-Length': String(body.length) })) return;
      res.write(body.subarray(0, Math.max(1, body.length >> 1)), () => socket.destroy());
      return;
    }
    case undefined:
      break;
    default: {
      // A fault added to CONNECTION_FAULTS (core/types.ts) must be acted out here: this fails to compile until it is.
      const unhandled: never = response.fault;
      throw new Error(`no way to act out the connection fault ${String(unhandled)}`);
    }
  }
  const body = response.body;
  const headers = response.headers;
  if (body === undefined) {
    headers['Content-Length'] = '0';
    if (writeHead(res, response.status, headers)) endThisTurn(res, undefined, 'latin1');
    return;
  }
  const bytes = Buffer.byteLength(body);
  headers['Content-Length'] = String(bytes);
  if (!writeHead(res, response.status, headers)) return;
  // Node writes header blocks as latin1 in any case; for an ASCII body (its UTF-8 length is its
  // length) latin1 gives the same bytes for less work than encoding UTF-8.
  endThisTurn(res, body, bytes === body.length ? 'latin1' : 'utf8');
}

/**
 * Acts out a `reset` or `empty` fault once the answers owed to the requests before this one are
 * written: Node gives a pipelined answer its socket only when those are finished, and a socket
 * write's callback runs once what was queued before it has gone to the system.
 */
function afterEarlierAnswers(res: ServerResponse, socket: Socket, fault: 'reset' | 'empty'): void {
  const act = (): void => {
    if (socket.destroyed) return;
    if (socket.writableLength > 0) {
      socket.write('', act);
      return;
    }
    if (fault === 'reset') socket.resetAndDestroy();
    else socket.destroy();
  };
  if (res.socket === null) res.once('socket', act);
  else act();
}

/**
 * Writes the head, or, when Node refuses it (a header it cannot send: scenarios are checked when
 * read, so only a bug gets here), answers 500 `internal_error` instead and says false: a thrown
 * `writeHead` would otherwise end the process and every session with it.
 */
function writeHead(res: ServerResponse, status: number, headers: Record<string, string>): boolean {
  try {
    res.writeHead(status, headers);
    return true;
  } catch (error) {
    if (res.headersSent) {
      res.destroy();
      return false;
    }
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    const failed = renderError(new Error(`the answer's head could not be written: ${error instanceof Error ? error.message : String(error)}`), API_CORS);
    const body = failed.body ?? '';
    res.writeHead(failed.status, { ...failed.headers, 'Content-Length': String(Buffer.byteLength(body)) });
    endThisTurn(res, body, 'utf8');
    return false;
  }
}

/**
 * Answers a request Node hands over as a bare socket instead of a response (CONNECT): the core
 * answers it like any other method, then the connection closes.
 */
export function answerOnSocket(engine: ApiHandler, req: IncomingMessage, socket: Socket): void {
  socket.on('error', () => socket.destroy());
  const target = req.url ?? '/';
  const core = toCoreRequest(req, target);
  // The same 414 as every other method: Node hands CONNECT over before the adapter's own check.
  const answer =
    target.length > MAX_TARGET_BYTES
      ? safely(() => engine.refuse({ ...core, path: '/', query: '' }, targetTooLong(target.length)))
      : safely(() => engine.handle(core));
  void andThen(
    answer,
    (response) => writeOnSocket(socket, response),
    (error: unknown) => writeOnSocket(socket, renderError(error, API_CORS)),
  );
}

function writeOnSocket(socket: Socket, response: CoreResponse): void {
  endRaw(socket, response.status, STATUS_CODES[response.status] ?? '', response.headers, response.body ?? '');
}
