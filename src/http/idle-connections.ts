import type { Socket } from 'node:net';

/** What the sweeps saw of a connection: its bytes read and written, since when and for how many sweeps they stood still. */
interface Seen {
  moved: number;
  since: number;
  still: number;
}

/** Sweeps per timeout; a connection is closed only after standing still through as many. */
const SWEEPS = 4;

/**
 * Closes the connections that have had nothing read or written for `timeoutMs`, above all a client
 * that stopped reading the answers it is owed. One timer looks at them all a few times per
 * timeout; Node's own socket timeout (`server.timeout`) did the same job by re-arming a timer on
 * every read and every write, about 3% of the CPU a list request costs under load
 * (docs/performance.md). A connection is closed between one and one and a quarter timeouts after
 * it went still, and only after as many sweeps saw it still: when the process was held up (a long
 * task, a starved machine), what the system sent meanwhile is counted by Node after the next sweep,
 * so one late sweep alone must not close a connection that was moving. `exempt` names the connections
 * that are waiting on purpose (a scenario's latency): their time starts once they move again.
 * Returns the function that stops the sweeps.
 */
export function closeIdleConnections(sockets: ReadonlySet<Socket>, timeoutMs: number, exempt: (socket: Socket) => boolean): () => void {
  const seen = new WeakMap<Socket, Seen>();
  const sweep = (): void => {
    const now = performance.now();
    for (const socket of sockets) {
      if (socket.destroyed) continue;
      // Bytes the system took from the server (written less what still waits in Node or in the
      // kernel's full buffer), plus bytes read: a client that reads or sends anything moves it.
      const moved = socket.bytesRead + socket.bytesWritten - socket.writableLength;
      const last = seen.get(socket);
      if (last === undefined) seen.set(socket, { moved, since: now, still: 0 });
      else if (last.moved !== moved || exempt(socket)) {
        last.moved = moved;
        last.since = now;
        last.still = 0;
      } else if (++last.still >= SWEEPS && now - last.since >= timeoutMs) socket.destroy();
    }
  };
  const timer = setInterval(sweep, Math.max(5, Math.min(timeoutMs / SWEEPS, 1000)));
  timer.unref();
  return () => clearInterval(timer);
}
