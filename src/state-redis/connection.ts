// The one place that talks to Redis (a single node, a Cluster or a Sentinel group): the scripts it
// runs, as Redis 7 functions or with EVALSHA, and what a failure becomes (state-errors.ts).
import { createHash } from 'node:crypto';
import type { Cluster, Redis as RedisClient } from 'ioredis';
import { MockError, UserError } from '../core/errors.js';
import { ADMIN_BODY, API_BODY, JOURNAL_BODY, SETTINGS_SCRIPT } from './scripts.js';
import { CLEAR_SCRIPT, JOIN_SCRIPT, LEAVE_SCRIPT } from './deployment-scripts.js';
import { LIBRARY, LIBRARY_BODY } from './lua-library.js';
import { isScriptBug, stateFailure, unavailableError } from './state-errors.js';
import { displayUrl, parseStateUrl } from './state-url.js';
import { CONNECT_TIMEOUT_MS, RECONNECT_TIMEOUT_MS, connect, createClient, nodeOptions, restartOnEnd, retryDelay } from './redis-client.js';
import { RedisClock } from './redis-clock.js';

export { displayUrl } from './state-url.js';

export type Reply = (string | number | null | Reply)[];

/** How long a command may take before the request is answered 503 (a paused Redis never answers). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1000;
/** What the connection tells the metrics. */
export interface StateObserver {
  roundTrip(seconds: number): void;
  failure(kind: string): void;
}

const SCRIPTS = {
  petApi: API_BODY,
  petJournal: JOURNAL_BODY,
  petAdmin: ADMIN_BODY,
  petSettings: SETTINGS_SCRIPT,
  petJoin: JOIN_SCRIPT,
  petLeave: LEAVE_SCRIPT,
  petClear: CLEAR_SCRIPT,
};
type ScriptName = keyof typeof SCRIPTS;
type Client = (RedisClient | Cluster) & Record<ScriptName, (numberOfKeys: number, ...keysAndArgs: (string | number)[]) => Promise<Reply>>;

/**
 * The scripts as one function library: the shared helpers (lua-library.ts) are defined once, when
 * it loads, rather than on every call as an EVAL script's must be. The library's and functions'
 * names carry a digest of the code, so deployments of different versions can share one Redis.
 */
function functionLibrary(): { code: string; functions: Record<string, string> } {
  const entries = Object.entries(SCRIPTS);
  const digest = createHash('sha1').update(LIBRARY_BODY).update(JSON.stringify(entries)).digest('hex').slice(0, 12);
  const functions = Object.fromEntries(entries.map(([name]) => [name, `${name}_${digest}`]));
  const registered = entries.map(
    ([name, lua]) => `redis.register_function('${functions[name]}', function(keys, args)\nKEYS = keys\nARGV = args\nP = args[1]\nDECL = nil\n${lua}\nend)`,
  );
  return { code: `#!lua name=petstore_mock_${digest}\nlocal P, ARGV, KEYS, DECL\n${LIBRARY_BODY}\n${registered.join('\n')}\n`, functions };
}
const FUNCTIONS = functionLibrary();

/**
 * The call's promise, or a timeout past `ms`: a bound of our own on every call. The client's command
 * timeout counts from when a command is written: one held in its queue before that (a Cluster
 * client finding its slots again after a cut) had no bound, and a CI run saw a replica on a Cluster
 * give no answer for over 40 s after a cut.
 */
function settledWithin<T>(call: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Command timed out: no reply within ${ms} ms`)), ms);
    call.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** A connection to the shared state; every call rejects with `state_unavailable` when Redis cannot answer. */
export class StateConnection {
  /** Set when this replica must not serve from the state any more (its deployment is gone). */
  private stopped: MockError | undefined;
  private closing = false;
  /** Whether the scripts run as functions (FCALL), else with EVALSHA. */
  private functions = true;
  /** The library being loaded again (a restarted Redis lost it), shared by the calls that found it missing. */
  private loading: Promise<void> | undefined;
  readonly redisClock = new RedisClock();
  /** A key of the deployment's slot, to find the cluster node that holds it. */
  slotKey = '{petstore-mock}:deploy';

  private constructor(
    private readonly client: Client,
    readonly url: string,
    readonly topology: 'node' | 'cluster' | 'sentinel',
    private readonly timeoutMs: number,
    private readonly observer?: StateObserver,
  ) {}

  /** Connects, or throws a UserError naming the URL (never its password) within a few seconds. */
  static async open(url: string, commandTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS, observer?: StateObserver): Promise<StateConnection> {
    const target = parseStateUrl(url);
    const ioredis = await import('ioredis');
    let client = createClient(ioredis, target, commandTimeoutMs) as Client;
    let topology: 'node' | 'cluster' | 'sentinel' = target.kind;
    await connect(client, url);
    if (target.kind === 'node' && /redis_mode:sentinel/.test(await (client as RedisClient).info('server').catch(() => ''))) {
      client.disconnect();
      throw new UserError(
        `--state ${displayUrl(url)} is a Redis Sentinel, which holds no data; name the sentinels and the primary they watch: redis+sentinel://HOST:PORT,HOST:PORT/MASTER_NAME/DB.`,
      );
    }
    if (target.kind === 'node' && /cluster_enabled:1/.test(await (client as RedisClient).info('cluster').catch(() => ''))) {
      // Any node of a cluster was named: the cluster client finds the others and follows MOVED, ASK and failovers.
      client.disconnect();
      if (target.db !== 0)
        throw new UserError(`--state ${displayUrl(url)} names database ${target.db}, and a Redis Cluster has only database 0; end the URL with /0.`);
      client = new ioredis.Cluster([{ host: target.host, port: target.port }], {
        lazyConnect: true,
        enableOfflineQueue: false,
        scaleReads: 'master',
        maxRedirections: 16,
        retryDelayOnFailover: 100,
        retryDelayOnClusterDown: 100,
        retryDelayOnTryAgain: 100,
        slotsRefreshTimeout: CONNECT_TIMEOUT_MS,
        // A failover elsewhere in the cluster is learnt within a second even when no command hits MOVED.
        slotsRefreshInterval: 1000,
        clusterRetryStrategy: retryDelay,
        redisOptions: nodeOptions(target, commandTimeoutMs),
      }) as Client;
      topology = 'cluster';
      await connect(client, url);
    }
    const connection = new StateConnection(client, url, topology, commandTimeoutMs, observer);
    await connection.readTime();
    connection.shortenReconnects();
    // A reconnection may reach another server (a promoted primary): its clock is read afresh.
    if (topology !== 'cluster') client.on('ready', () => void connection.readTime(true));
    restartOnEnd(client, () => connection.closing);
    try {
      await connection.loadFunctions();
    } catch {
      // Redis before 7 has no functions, and a user may lack the right to load them: EVALSHA then.
      // The number of keys goes with each call: a call declares every key it touches.
      for (const [name, lua] of Object.entries(SCRIPTS)) client.defineCommand(name, { lua: `${LIBRARY}${lua}` });
      connection.functions = false;
    }
    return connection;
  }

  /** The Redis instant (ms) after which a call sent now must change nothing (the replica gave up on it), if known. */
  deadline(): number | undefined {
    return this.redisClock.deadline(performance.now(), this.timeoutMs);
  }

  /** A reading of Redis's clock: at the start, and with `forget` whenever another server may answer (its clock may be behind). */
  async readTime(forget = false): Promise<void> {
    if (forget) this.redisClock.forget();
    const node = await this.ownerNode().catch(() => undefined);
    const time = await node?.time().catch(() => undefined);
    if (time) this.redisClock.observe(Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000), performance.now());
  }

  /** The server that holds the deployment's slot (the one server, but for a cluster). */
  private async ownerNode(): Promise<RedisClient> {
    if (this.topology !== 'cluster') return this.client as RedisClient;
    const cluster = this.client as Cluster;
    const slot = Number(await cluster.cluster('KEYSLOT', this.slotKey));
    const owner = cluster.slots[slot]?.[0];
    const masters = cluster.nodes('master');
    return masters.find((n) => `${n.options.host}:${n.options.port}` === owner) ?? (masters[0] as RedisClient);
  }

  /** Connections after the first give up sooner. */
  private shortenReconnects(): void {
    if (this.topology === 'cluster') {
      const cluster = this.client as Cluster;
      if (cluster.options.redisOptions) cluster.options.redisOptions.connectTimeout = RECONNECT_TIMEOUT_MS;
      for (const node of cluster.nodes('all')) node.options.connectTimeout = RECONNECT_TIMEOUT_MS;
    } else {
      (this.client as RedisClient).options.connectTimeout = RECONNECT_TIMEOUT_MS;
    }
  }

  get connected(): boolean {
    return this.stopped === undefined && this.client.status === 'ready';
  }

  /**
   * Calls a script with every key it touches declared (`keys`, one Cluster slot: they share the
   * prefix's hash tag), so a Cluster node answers ASK or TRYAGAIN rather than run it mid-migration.
   */
  run(script: ScriptName, keys: string[], args: (string | number)[]): Promise<Reply> {
    if (this.stopped) return Promise.reject(this.stopped);
    const started = performance.now();
    return settledWithin(this.call(script, keys, args), this.timeoutMs * 1.5).then(
      (reply) => {
        this.observer?.roundTrip((performance.now() - started) / 1000);
        return reply;
      },
      (error: unknown) => {
        const failure = this.failure(error);
        // A command that timed out sits in a socket that may be dead (a cut link): the commands
        // behind it would wait there too, and TCP's backed-off retries would hold the link for
        // seconds after its return. Drop it and connect afresh (on a cluster every node's connection).
        const kind = stateFailure(error, this.timeoutMs).kind;
        if (kind === 'timeout' && this.client.status === 'ready') this.client.disconnect(true);
        // Another server may answer next: learn its clock rather than trust the old one's.
        if (['moved', 'cluster_down', 'readonly', 'primary_down'].includes(kind)) void this.readTime(true);
        throw failure;
      },
    );
  }

  private async call(script: ScriptName, keys: string[], args: (string | number)[]): Promise<Reply> {
    if (!this.functions) return this.client[script](keys.length, ...keys, ...args);
    const fcall = (): Promise<Reply> => this.client.fcall(FUNCTIONS.functions[script] as string, keys.length, ...keys, ...args) as Promise<Reply>;
    try {
      return await fcall();
    } catch (error) {
      // A Redis restarted without its data, or a new primary, lacks the library: load it, try once more.
      if (!(error instanceof Error && /^ERR Function not found/.test(error.message))) throw error;
      this.loading ??= this.loadFunctions().finally(() => {
        this.loading = undefined;
      });
      await this.loading;
      return await fcall();
    }
  }

  /** Loads the function library on every primary (a library of the same digest already there is the same code). */
  private async loadFunctions(): Promise<void> {
    const nodes = this.topology === 'cluster' ? (this.client as Cluster).nodes('master') : [this.client as RedisClient];
    await Promise.all(
      nodes.map((node) =>
        node.function('LOAD', FUNCTIONS.code).catch((error: unknown) => {
          if (!(error instanceof Error && /already exists/.test(error.message))) throw error;
        }),
      ),
    );
  }

  /**
   * One decision of a batch failed inside the script (the others stand): a Redis error on its keys
   * is the 503 of an unavailable state, any other fault a bug of the script (500).
   */
  decisionFailed(message: string): Error {
    const redisError = /^[A-Z][A-Z_]+ /.test(message) && !message.startsWith('ERR ');
    const error = new Error(redisError ? message : `ERR Error running script: ${message}`);
    error.name = 'ReplyError';
    return this.failure(error);
  }

  /** The 503 of a call Redis started after its deadline: it changed nothing. */
  expired(): Error {
    return this.failure(new Error('Command timed out'));
  }

  /** From now on every call answers this 503: the replica's deployment is gone (see deployment.ts). */
  stop(error: MockError): void {
    this.stopped = error;
    this.observer?.failure('deployment_gone');
  }

  /** The `X-Mock-Session` ids of a deployment, in LRU order (one read; a script checks it is still so). */
  sessionIds(prefix: string): Promise<string[]> {
    if (this.stopped) return Promise.reject(this.stopped);
    return this.client.zrange(`${prefix}:sessions`, '0', '-1').catch((error: unknown) => {
      throw this.failure(error);
    });
  }

  /** One step of a SCAN over the deployment's keys (`{P}:*`), on the node that holds its slot. */
  async scanDeployment(prefix: string, cursor: string): Promise<[string, string[]]> {
    if (this.stopped) throw this.stopped;
    try {
      this.slotKey = `${prefix}:deploy`;
      const node = await this.ownerNode();
      return await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    } catch (error) {
      throw this.failure(error);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  /** A failed command: a fault of the scripts stays a bug (500), anything else means Redis cannot serve. */
  private failure(error: unknown): Error {
    if (isScriptBug(error)) return error as Error;
    const failure = stateFailure(error, this.timeoutMs);
    this.observer?.failure(failure.kind);
    return unavailableError(this.url, failure.reason);
  }
}
