// The options of the library's entry points, apart from mock.ts so that the shared-state assembly
// (shared-mock.ts) can take them without importing the in-memory one.
import type { JournalEntry } from './core/state/journal.js';
import type { KeyConfig, Pet } from './core/types.js';
import type { ReloadReport } from './files/live-reload.js';

/** A key given as an object: its limits in any form the `--key` flag and scenarios know. */
export type KeyOption = Omit<KeyConfig, 'limits' | 'custom'> & { limits?: KeyConfig['limits'] | readonly string[] | { perMinute?: number; perDay?: number } };

/** Options of `startMock` (and of the CLI, which maps its flags onto them). */
export interface MockOptions {
  /** Port to listen on; 0 (the library's default) takes a free one. */
  port?: number;
  /** Interface to listen on; 127.0.0.1 by default. */
  host?: string;
  /** Faker seed for the generated animals; the same seed gives byte-identical answers. */
  seed?: number;
  /** How many animals to generate (50 by default: fewer than the largest page, so created ones show in a list). */
  pets?: number;
  /** A fixtures file (JSON array of animals or json-server db.json), or the animals themselves. */
  fixtures?: string | readonly Pet[];
  /** A shipped scenario name or a scenario file path. */
  scenario?: string;
  /**
   * Extra keys as `KEY:PLAN`, `KEY:PLAN:10/s,600/m,100000/d` or `KEY:PLAN:PER_MINUTE:PER_DAY` strings, or objects whose
   * `limits` are window texts (`["10/s", "600/m"]`), windows (`{ lengthMs, max }`) or `{ perMinute, perDay }`.
   */
  keys?: readonly (string | KeyOption)[];
  /** Protects the admin API: admin calls must send `Authorization: Bearer <token>`. */
  adminToken?: string;
  /** Host names the admin API answers to besides loopback names and `host` (as `--allow-host`). */
  allowHosts?: readonly string[];
  /** Open connections past which a new one gets 503 `too_many_connections` (1,000 by default). */
  maxConnections?: number;
  /**
   * Seconds `close()` waits for the answers in flight, a scenario's latency included, before it
   * cuts them and says so on stderr (5 by default; `--drain-time` on the command line).
   */
  drainTime?: number;
  /** `X-Mock-Session` sessions kept at once; past it the least recently used is dropped (1,000 by default). */
  maxSessions?: number;
  /** Called once per answered API request (the CLI logs with it). */
  onRequest?: (entry: JournalEntry) => void;
  /** The real time source the virtual clocks run on (Date.now by default). */
  now?: () => number;
  /** Counts of the request log's output (the CLI's), shown by `GET /__admin/health`. */
  logStats?: { readonly droppedLines: number; readonly readerBehind?: boolean };
  /**
   * Reloads scenario files and the fixtures file when they change, restarting the sessions that
   * use them in the new version (`--watch`). A file with a mistake keeps the old version running.
   */
  watch?: boolean;
  /** Called after each reload under `watch`, with what changed, what restarted and any mistake. */
  onReload?: (report: ReloadReport) => void;
  /** A snapshot (docs/snapshots.md) the default session starts from: the document, or the path of its file (`--import`). */
  import?: string | object;
  /**
   * A deployment's profile (`petstore-mock verify --profile FILE` writes it; docs/verify.md): the
   * document or the path of its file (`--profile`). Every session answers with its latency (seeded)
   * and every key the mock knows gets its limits, under any scenario.
   */
  profile?: string | object;
  /** A file `close()` writes the default session's snapshot to, atomically: a temporary file renamed (`--export-on-exit`). */
  exportOnExit?: string;
}

/** Options of `createFetchHandler`: those of `startMock` without the networking ones. */
export interface FetchHandlerOptions extends Omit<
  MockOptions,
  'port' | 'host' | 'adminToken' | 'allowHosts' | 'maxConnections' | 'drainTime' | 'logStats' | 'watch' | 'onReload' | 'exportOnExit'
> {
  /** The client address requests without a key are counted under (127.0.0.1 by default). */
  clientAddress?: string;
}

/** Where the sessions of a mock live when they are shared by every instance started so (docs/scale-out.md). */
interface StateOptions {
  /** `redis://HOST:PORT/DB` (or `rediss://`); real time is then Redis's clock. */
  state: string;
  /** The key prefix of the deployment in Redis (`petstore-mock` by default). */
  statePrefix?: string;
  /** How long a Redis command may take before the answer is a 503 (1000 ms by default). */
  stateTimeoutMs?: number;
}

/** Options of a mock whose sessions live in Redis; live reload restarts this process's sessions, so it is left out. */
export interface SharedMockOptions extends Omit<MockOptions, 'now' | 'watch' | 'onReload'>, StateOptions {}

/** Options of `createFetchHandler` on a shared state. */
export interface SharedFetchOptions extends Omit<FetchHandlerOptions, 'now'>, StateOptions {}

/**
 * Every option name the Node entries (`startMock`, `createFetchHandler`, with or without `state`)
 * take, so that a name they do not know is refused with the closest one rather than ignored. An
 * option added to one of the types above and not here fails to compile, and so does a name here
 * that none of them has.
 */
export const LIBRARY_OPTION_NAMES = {
  port: true,
  host: true,
  seed: true,
  pets: true,
  fixtures: true,
  scenario: true,
  keys: true,
  adminToken: true,
  allowHosts: true,
  maxConnections: true,
  drainTime: true,
  maxSessions: true,
  onRequest: true,
  now: true,
  logStats: true,
  watch: true,
  onReload: true,
  import: true,
  profile: true,
  exportOnExit: true,
  clientAddress: true,
  state: true,
  statePrefix: true,
  stateTimeoutMs: true,
} as const satisfies Record<keyof MockOptions | keyof FetchHandlerOptions | keyof SharedMockOptions | keyof SharedFetchOptions, true>;
