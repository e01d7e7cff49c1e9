// What a connection still owes its client, read from Node's own bookkeeping: the response being
// written (or waiting its turn to write) is `socket._httpMessage`, and when it finishes Node
// hands the socket to the next pipelined one before any listener of ours runs. Walking that
// chain costs nothing on the hot path: nothing is tracked per request.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { named } from '../core/errors.js';

type Owing = Socket & { _httpMessage?: ServerResponse<IncomingMessage> | null };

/**
 * The answer a socket is writing or about to write. Node detaches it in its own 'finish'
 * listener, which runs before ours; `writableFinished` is no guide, as it turns true before
 * 'finish' is emitted, while the next pipelined answer still waits its turn.
 */
function current(socket: Socket): ServerResponse<IncomingMessage> | undefined {
  return (socket as Owing)._httpMessage ?? undefined;
}

/**
 * Calls `then` once the socket has written every answer it owes, in order. With
 * `uptoBroken`, an answer to a request that never arrived whole (the one the parser failed on,
 * or one cut by the request timeout) is not waited for: the error answer takes its place.
 * Nothing is called if the socket closes first.
 */
export function afterOwedAnswers(socket: Socket, then: () => void, uptoBroken = false): void {
  if (socket.destroyed) return;
  const res = current(socket);
  if (res === undefined || (uptoBroken && !res.req.complete)) {
    then();
    return;
  }
  const next = (): void => {
    res.off('finish', next);
    res.off('close', next);
    afterOwedAnswers(socket, then, uptoBroken);
  };
  res.on('finish', next);
  res.on('close', next);
}

/** What a socket is still answering, for the line that says what a drain cut: `GET /v1/pets`. */
function owedRequest(socket: Socket): string | undefined {
  const req = current(socket)?.req;
  return req ? `${req.method ?? '?'} ${(req.url ?? '/').slice(0, 120)}` : undefined;
}

/** A server being stopped: `settle` closes a connection once it owes nothing; `done` resolves when all are closed. */
export interface Drain {
  done: Promise<void>;
  settle(socket: Socket): void;
  /** Cuts what is left now rather than at the drain time (a second signal); `why` starts the line that says so. */
  cut(why: string): void;
}

/**
 * Stops accepting, lets every connection finish the answers it owes (a scenario's latency
 * included), closes each as it is done, and after `drainMs` cuts whatever is left, saying what
 * on stderr. Connections that owe nothing close at once: idle keep-alive ones, and fresh ones
 * that sent nothing by the next turn of the event loop (which reads what has already arrived).
 * A fresh connection whose request is arriving is served, then closed (the server calls `settle`
 * for each request it gets while draining).
 */
export function drain(server: Server, sockets: ReadonlySet<Socket>, served: WeakSet<Socket>, drainMs: number): Drain {
  const settled = new WeakSet<Socket>();
  const settle = (socket: Socket): void => {
    if (settled.has(socket)) return;
    settled.add(socket);
    // Closed for good once written: a request the client sends meanwhile finds the connection gone, not half-served.
    afterOwedAnswers(socket, () => socket.end(() => socket.destroy()));
  };
  const cut = (why: string): void => {
    const left = [...sockets];
    if (left.length === 0) return;
    const owed = left.map(owedRequest).filter((r): r is string => r !== undefined);
    const what = owed.length > 0 ? `: ${owed.slice(0, 10).join(', ')}${owed.length > 10 ? ` and ${owed.length - 10} more` : ''}` : '';
    process.stderr.write(`${named(`${why}; closed ${left.length} connection${left.length === 1 ? '' : 's'} with answers still owed${what}.`)}\n`);
    for (const socket of left) socket.destroy();
  };
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(() => cut(`the drain time of ${drainMs / 1000} s ran out`), drainMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
    for (const socket of sockets) if (served.has(socket)) settle(socket);
    setImmediate(() => {
      for (const socket of sockets) if (!served.has(socket) && socket.bytesRead === 0) socket.destroy();
    });
  });
  return { done, settle, cut };
}
