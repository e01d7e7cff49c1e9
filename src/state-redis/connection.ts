// The one place that talks to Redis: the client (loaded only when a shared state is asked for),
// the scripts it runs with EVALSHA, and what a failure becomes (`state_unavailable`).
import type { Redis as RedisClient } from 'ioredis';
import { MockError, UserError } from '../core/errors.js';
import { ADMIN_SCRIPT, API_SCRIPT, DEPLOY_SCRIPT, JOURNAL_SCRIPT, SETTINGS_SCRIPT } from './scripts.js';

/** A Redis reply as the scripts give it: strings, integers, nil and nested arrays. */
export type Reply = (string | number | null | Reply)[];

/** How long a command may take before the request is answered 503 (a paused Redis never answers). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1000;
/** How long a start waits for Redis before giving up. */
const CONNECT_TIMEOUT_MS = 3000;

type ScriptName = 'petApi' | 'petJournal' | 'petAdmin' | 'petDeploy' | 'petSettings';
type ScriptClient = RedisClient & Record<ScriptName, (key: string, ...args: (string | number)[]) => Promise<Reply>>;

/** The URL with its password hidden, for messages and the health answer. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** A connection to the shared state; every call rejects with `state_unavailable` when Redis cannot answer. */
export class StateConnection {
  private constructor(
    private readonly client: ScriptClient,
    readonly url: string,
  ) {}

  /** Connects, or throws an Error naming the URL within a few seconds. */
  static async open(url: string, commandTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS): Promise<StateConnection> {
    if (!/^rediss?:\/\//.test(url)) {
      throw new UserError(`--state ${JSON.stringify(displayUrl(url))} is not a Redis URL; write --state redis://HOST:PORT/DB (or rediss:// for TLS).`);
    }
    const { Redis } = await import('ioredis');
    const client = new Redis(url, {
      lazyConnect: true,
      // Never queue or replay a command while disconnected: the answer is a 503 now, not a late write.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (times: number) => Math.min(times * 100, 1000),
    }) as ScriptClient;
    // ioredis reports connection trouble as events too; requests see it as rejected commands.
    client.on('error', () => undefined);
    client.defineCommand('petApi', { numberOfKeys: 1, lua: API_SCRIPT });
    client.defineCommand('petJournal', { numberOfKeys: 1, lua: JOURNAL_SCRIPT });
    client.defineCommand('petAdmin', { numberOfKeys: 1, lua: ADMIN_SCRIPT });
    client.defineCommand('petDeploy', { numberOfKeys: 1, lua: DEPLOY_SCRIPT });
    client.defineCommand('petSettings', { numberOfKeys: 1, lua: SETTINGS_SCRIPT });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect(),
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('no answer')), CONNECT_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      client.disconnect();
      throw new UserError(`cannot reach the shared state at ${displayUrl(url)} (${reasonOf(error)}); start Redis there or fix --state.`);
    } finally {
      clearTimeout(timer);
    }
    return new StateConnection(client, url);
  }

  /** Whether the client is connected right now (for the health answer). */
  get connected(): boolean {
    return this.client.status === 'ready';
  }

  run(script: ScriptName, key: string, args: (string | number)[]): Promise<Reply> {
    return this.client[script](key, ...args).catch((error: unknown) => {
      throw this.failure(error);
    });
  }

  /** A server statistic, for benchmarks. */
  info(section: string): Promise<string> {
    return this.client.info(section);
  }

  async close(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  /** A failed command: a script bug stays a bug (500), anything else means Redis cannot answer. */
  private failure(error: unknown): Error {
    if (error instanceof Error && error.name === 'ReplyError' && !/LOADING|BUSY|MASTERDOWN|READONLY/.test(error.message)) return error;
    return unavailable(this.url, error);
  }
}

/** The 503 of every answer while the shared state cannot be reached. */
export function unavailable(url: string, error: unknown): MockError {
  return new MockError(
    'state_unavailable',
    `petstore-mock cannot reach its shared state at ${displayUrl(url)} (${reasonOf(error)}); nothing was answered from local memory. Retry after 1 s.`,
    { headers: { 'Retry-After': '1' } },
  );
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/timed? ?out/i.test(message)) return 'no answer within the command timeout';
  if (/ECONNREFUSED/.test(message)) return 'connection refused';
  if (/writeable|closed|ECONNRESET|EPIPE/i.test(message)) return 'not connected';
  return message.split('\n')[0];
}
