// Making the client: its options for a node, a Sentinel group or each node of a cluster, and the
// first connection, which a start waits for (and which says why it failed).
import type { Cluster, Redis as RedisClient, RedisOptions } from 'ioredis';
import { UserError } from '../core/errors.js';
import { stateFailure } from './state-errors.js';
import { displayUrl, type StateTarget } from './state-url.js';

/** How long a start waits for Redis before giving up. */
export const CONNECT_TIMEOUT_MS = 3000;
/**
 * How long each later connection attempt may take: after a network cut, attempts that last
 * 1 s and follow each other within 0.5 s find the link within about 1.5 s of its return (an
 * attempt of 3 s would wait out the kernel's SYN retries instead).
 */
export const RECONNECT_TIMEOUT_MS = 1000;
export const retryDelay = (times: number): number => Math.min(times * 100, 500);

export function nodeOptions(target: StateTarget, commandTimeoutMs: number): RedisOptions {
  return {
    ...(target.username === undefined ? {} : { username: target.username }),
    ...(target.password === undefined ? {} : { password: target.password }),
    ...(target.tls ? { tls: {} } : {}),
    db: target.db,
    // Never queue or replay a command while disconnected: the answer is a 503 now, not a late write.
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // A managed primary endpoint that moved after a failover answers READONLY from the old
    // primary: connect again (the name then leads to the new one); the command itself gets a 503.
    reconnectOnError: (error: Error) => (/^READONLY/.test(error.message) ? 1 : false),
  };
}

export function createClient(ioredis: { Redis: typeof RedisClient }, target: StateTarget, commandTimeoutMs: number): RedisClient {
  const common = {
    ...nodeOptions(target, commandTimeoutMs),
    lazyConnect: true,
    enableOfflineQueue: false,
    retryStrategy: retryDelay,
  };
  if (target.kind === 'node') return new ioredis.Redis({ ...common, host: target.host, port: target.port });
  return new ioredis.Redis({
    ...common,
    sentinels: target.sentinels,
    name: target.master,
    enableTLSForSentinelMode: target.tls,
    sentinelRetryStrategy: retryDelay,
    // Told by the sentinels of a promotion at once, rather than at the next failed command.
    failoverDetector: true,
  });
}

/**
 * The start's connection: waits up to CONNECT_TIMEOUT_MS for the client to be ready, reconnecting
 * as it does meanwhile (Redis may be starting beside the mock, or a first connection may close
 * before its ready check); a refused password fails at once, since waiting cannot mend it. A
 * failure names the last error Redis or the network gave, not the client's "connection closed".
 */
export async function connect(client: RedisClient | Cluster, url: string): Promise<void> {
  let last: unknown;
  let fail: ((error: unknown) => void) | undefined;
  const listener = (error: Error): void => {
    if (error.name === 'ReplyError') fail?.(error);
    else last = error;
  };
  let ready: (() => void) | undefined;
  client.on('error', listener);
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      fail = reject;
      ready = resolve;
      client.once('ready', resolve);
      timer = setTimeout(() => reject(last ?? new Error('timed out')), CONNECT_TIMEOUT_MS);
      client.connect().then(resolve, (error: unknown) => {
        last ??= error;
      });
    });
  } catch (error) {
    client.disconnect();
    throw new UserError(
      `cannot reach the shared state at ${displayUrl(url)} (${stateFailure(error, CONNECT_TIMEOUT_MS).reason}); start Redis there or fix --state.`,
    );
  } finally {
    clearTimeout(timer);
    if (ready) client.off('ready', ready);
    client.off('error', listener);
    client.on('error', () => undefined);
  }
}

/**
 * Connects a client again after an end nobody asked for (`closing` says whether one was). ioredis
 * ends a client for good when a disconnect meets one of its connection attempts halfway: with
 * Sentinel, the news of a promotion (+switch-master) arriving while the client asks a sentinel
 * where the primary is left it answering "not connected" from then on.
 */
export function restartOnEnd(client: RedisClient | Cluster, closing: () => boolean): void {
  client.on('end', () => {
    if (closing()) return;
    setTimeout(() => {
      if (!closing() && client.status === 'end') client.connect().catch(() => undefined);
    }, retryDelay(1)).unref();
  });
}
