// The options both HTTP modules read; kept apart so the admin API and the server import no
// each other.

/** Options of the HTTP server around a core engine. */
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
  /** Extra admin context: scenario names and loading (filled in by the library). */
  admin?: AdminContext;
  /** Counts of the request log's output, for the health answer. */
  logStats?: { readonly droppedLines: number; readonly readerBehind?: boolean };
}

/** What the admin API needs beyond the engine: the scenarios it can switch to. */
export interface AdminContext {
  listScenarios(): { name: string; description: string }[];
  /** Applies a scenario to the world of one session (the default one without a header). */
  useScenario(name: string, sessionHeader: string | undefined): void;
}
