import type { Served } from './assembly.js';
import type { AdminState, ApiHandler } from './core/state/backend.js';
import { listen, type RunningServer } from './http/server.js';
import type { MockOptions } from './library-options.js';
import type { Metrics } from './metrics.js';
import { checkCloseOptions, type CloseOptions } from './mock-options.js';

/** A home as a server needs it. */
export interface ServedHome {
  engine: ApiHandler;
  admin: AdminState;
  metrics: Metrics;
  /** Called once the port is open, so a start that fails earlier leaves nothing behind; a failure stops all. */
  listening?(): Promise<void>;
  /** Called after the drain of `close()`, while the home still holds what was answered. */
  drained?(): void;
  /** Ends the home: after a failed start, or last on `close()`. */
  stop(): void | Promise<void>;
}

/** Starts the server of a home, with the library's defaults (127.0.0.1, a free port); the members a handle gets from it. */
export async function serve(home: ServedHome, options: MockOptions): Promise<Served> {
  let running: RunningServer;
  try {
    running = await listen(home.engine, {
      port: options.port ?? 0,
      host: options.host ?? '127.0.0.1',
      adminToken: options.adminToken,
      allowHosts: options.allowHosts,
      maxConnections: options.maxConnections,
      drainTimeS: options.drainTime,
      admin: home.admin,
      metrics: home.metrics,
      logStats: options.logStats,
    });
  } catch (error) {
    await home.stop();
    throw error;
  }
  try {
    await home.listening?.();
  } catch (error) {
    await running.close();
    await home.stop();
    throw error;
  }
  const { origin } = running;
  return {
    url: `${origin}/v1`,
    origin,
    port: Number(new URL(origin).port),
    close: async (closeOptions?: CloseOptions) => {
      const { lameDuck, signal } = checkCloseOptions(closeOptions);
      try {
        await running.close(lameDuck, signal);
        home.drained?.();
      } finally {
        await home.stop();
      }
    },
  };
}
