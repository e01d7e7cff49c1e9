import type { Socket } from 'node:net';

/** What a sweep last saw of a connection: its bytes read and written, and since when they stood still. */
interface Seen {
  moved: number;
  since: number;
}

/**
 * Closes the connections that have had nothing read or written for `timeoutMs`, above all a client
 * that stopped reading the answers it is owed. One timer looks at them all a few times per
 * timeout; Node's own socket timeout (`server.timeout`) did the same job by re-arming a timer on
 * every read and every write, which cost about a microsecond of each list request under load
 * (docs/performance.md). A connection is closed between one and one and a quarter timeouts after
 * it went still. `exempt` names the connections that are waiting on purpose (a scenario's latency):
 * their time still starts once they move again. Returns the function that stops the sweeps.
 */
export function closeIdleConnections(sockets: ReadonlySet<Socket>, timeoutMs: number, exempt: (socket: Socket) => boolean): () => void {
  const seen = new WeakMap<Socket, Seen>();
  const sweep = (): void => {
    const now = performance.now();
    for (const socket of sockets) {
      if (socket.destroyed) continue;
      // Bytes the system took from the server (written less what still waits in Node or in the
      // kernel's full buffer), plus bytes read: a client that reads or sends anything moves it.
      const moved = socket.bytesRead + (socket.bytesWritten ?? 0) - socket.writableLength;
      const last = seen.get(socket);
      if (last === undefined) seen.set(socket, { moved, since: now });
      else if (last.moved !== moved || exempt(socket)) {
        last.moved = moved;
        last.since = now;
      } else if (now - last.since >= timeoutMs) socket.destroy();
    }
  };
  const timer = setInterval(sweep, Math.max(5, Math.min(timeoutMs / 4, 1000)));
  timer.unref();
  return () => clearInterval(timer);
}
