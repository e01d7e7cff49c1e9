// A shared state on Redis: the engine and admin state of one instance of a replicated deployment.
// Loaded with import() only when `--state` is given, so a plain start never loads a Redis client.
import type { KeyIds } from '../core/state/key-id.js';
import type { AdminState } from '../core/state/backend.js';
import type { ScenarioCatalogue } from '../files/scenario-catalogue.js';
import { DEFAULT_MAX_SESSIONS } from '../core/state/sessions.js';
import { StateConnection, type StateObserver } from './connection.js';
import { MockOptionError } from '../mock-options.js';
import { RedisAdmin } from './redis-admin.js';
import { RedisPort } from './redis-port.js';
import { SettingsRegistry } from './settings-registry.js';
import { Deployment } from './deployment.js';
import { identityOf, type IdentityInput } from './identity.js';

export { DeploymentMismatch } from './deployment.js';
// For `state clear` (cli/state-command.ts), which reaches the home only through this file.
export { StateConnection, displayUrl } from './connection.js';
export { clearDeployment, DEFAULT_HEARTBEAT_EXPIRY_MS } from './deployment.js';

/** The key prefix when none is given; it holds nothing from the URL (no password can leak into key names). */
export const DEFAULT_STATE_PREFIX = 'petstore-mock';

/** What a shared state needs to know of the instance it serves. */
export interface SharedStateOptions extends Partial<IdentityInput> {
  url: string;
  prefix?: string;
  scenarios: ScenarioCatalogue;
  /** The start settings came from this scenario (undefined: the flags alone). */
  startScenario?: string;
  commandTimeoutMs?: number;
  /** How long the deployment outlives its last replica's heartbeat (30 s by default). */
  heartbeatExpiryMs?: number;
  /** Told each Redis round trip and failure, for `GET /__admin/metrics`. */
  observer?: StateObserver;
}

/** One instance's view of a shared state. */
export interface SharedState {
  /** The pipeline's port to this state. */
  port: RedisPort;
  /** Sends the journal entries of answered requests that have not ridden with a request yet. */
  flush(): Promise<void>;
  admin: RedisAdmin & AdminState;
  prefix: string;
  /** Joins the deployment (after the server listens: a start that fails registers nothing). */
  join(): Promise<void>;
  close(): Promise<void>;
}

/** Checks a `statePrefix` and gives the prefix with its hash tag: `{name}`. */
export function hashTagPrefix(prefix: string | undefined): string {
  // The prefix is a Redis hash tag: braces (or anything unusual in a key name) would break it.
  if (prefix !== undefined && !/^[A-Za-z0-9._:-]{1,64}$/.test(prefix)) {
    throw new MockOptionError(`the option "statePrefix" must be 1 to 64 letters, digits and ._:-, not ${JSON.stringify(prefix).slice(0, 80)}.`);
  }
  return `{${prefix ?? DEFAULT_STATE_PREFIX}}`;
}

/**
 * Connects to Redis and checks this instance against the deployment under the prefix, writing
 * nothing yet: `join()` registers it. Throws an Error naming the URL when Redis cannot be
 * reached, and `DeploymentMismatch` naming the setting that differs and both values.
 */
export async function openSharedState(options: SharedStateOptions): Promise<SharedState> {
  const prefix = hashTagPrefix(options.prefix);
  const conn = await StateConnection.open(options.url, options.commandTimeoutMs, options.observer);
  conn.slotKey = `${prefix}:deploy`;
  // On a cluster, the clock that matters is that of the node holding this deployment's slot.
  if (conn.topology === 'cluster') await conn.readTime(true);
  const start = options.startScenario ? options.scenarios.load(options.startScenario) : undefined;
  const startSettings = start?.settings ?? options.scenarios.startSettings();
  const registry = new SettingsRegistry(conn, prefix, options.scenarios, startSettings);
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const identity = identityOf({ ...options, maxSessions }, options.scenarios.startSettings(), startSettings, start?.source);
  const deployment = new Deployment(conn, prefix, identity, registry.start.init, options.heartbeatExpiryMs);
  try {
    await deployment.check();
  } catch (error) {
    await conn.close();
    throw error;
  }
  // Redis answers that the deployment is not registered: join (once) or, having joined, stop.
  const register = (): Promise<void> => deployment.join();
  const keyIds = (): KeyIds => deployment.keyIds;
  const port = new RedisPort(conn, prefix, registry, maxSessions, register, keyIds);
  const admin = new RedisAdmin(conn, prefix, registry, options.scenarios, maxSessions, register, () => port.flush(), keyIds);
  // Health must fail while the state cannot take a write (out of memory, read-only), so it beats first.
  const health = admin.health.bind(admin);
  admin.health = async (session) => {
    const reportsDeployment = await deployment.heartbeat();
    const answer = { ...(await health(session)), reportsDeployment };
    const failing = port.failures.failing();
    return failing.length === 0 ? answer : { ...answer, state: { ...answer.state, failing } };
  };
  return {
    port,
    admin,
    prefix,
    flush: () => port.flush(),
    join: register,
    close: async () => {
      // The journal entries of the last answers have not ridden with a request yet.
      await port.flush();
      await deployment.leave();
      await conn.close();
    },
  };
}
