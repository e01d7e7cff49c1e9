import type { AdminState } from '../core/state/backend.js';
import type { Metrics } from '../metrics.js';

// The options both HTTP modules read; kept apart so the admin API and the server import no
// each other.

/** Options of the HTTP server around an engine. */
export interface HttpOptions {
  port: number;
  host: string;
  /** When set, every admin call must send `Authorization: Bearer <token>`. */
  adminToken?: string;
  /** Names besides loopback ones and `host` that the admin API answers to (`--allow-host`). */
  allowHosts?: readonly string[];
  /** Open connections past which a new one is refused with 503 (DEFAULT_MAX_CONNECTIONS). */
  maxConnections?: number;
  /** How long an answer may wait for a client that does not read it (DEFAULT_WRITE_TIMEOUT_MS). */
  writeTimeoutMs?: number;
  /** Seconds `close()` lets answers in flight finish before it cuts them (DEFAULT_DRAIN_TIME_S). */
  drainTimeS?: number;
  /** What the admin API reads and changes: the sessions of the state engine and the scenarios (none: no admin API). */
  admin?: AdminState;
  /** The counters `GET /__admin/metrics` shows. */
  metrics?: Metrics;
  /** Whether the server is stopping (its lame duck or drain), for the health answer; set by the server. */
  stopping?: () => boolean;
  /** Counts of the request log's output, for the health answer. */
  logStats?: { readonly droppedLines: number; readonly readerBehind?: boolean };
}
