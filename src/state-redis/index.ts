// A shared state on Redis: the engine and admin state of one instance of a replicated deployment.
// Loaded with import() only when `--state` is given, so a plain start never loads a Redis client.
import { UserError } from '../core/errors.js';
import { petJson } from '../core/state/store.js';
import type { AdminState } from '../core/state/backend.js';
import type { ScenarioCatalogue } from '../files/scenario-catalogue.js';
import { DEFAULT_PET_COUNT, DEFAULT_SEED } from '../core/state/seed.js';
import { DEFAULT_MAX_SESSIONS } from '../core/state/sessions.js';
import { StateConnection, displayUrl } from './connection.js';
import { MockOptionError } from '../mock-options.js';
import { RedisAdmin } from './redis-admin.js';
import { RedisPort } from './redis-port.js';
import { SettingsRegistry, digest } from './settings-registry.js';

/** The key prefix when none is given; it holds nothing from the URL (no password can leak into key names). */
export const DEFAULT_STATE_PREFIX = 'petstore-mock';

/** What a shared state needs to know of the instance it serves. */
export interface SharedStateOptions {
  url: string;
  prefix?: string;
  scenarios: ScenarioCatalogue;
  /** The start settings came from this scenario (undefined: the flags alone). */
  startScenario?: string;
  /** The flags every instance of a deployment must share. */
  seed?: number;
  pets?: number;
  fixtures?: boolean;
  commandTimeoutMs?: number;
  /** `X-Mock-Session` sessions kept at once across the deployment (1,000 by default). */
  maxSessions?: number;
}

/** One instance's view of a shared state. */
export interface SharedState {
  /** The pipeline's port to this state: `new PortEngine(port)` answers API requests on it. */
  port: RedisPort;
  /** Sends the journal entries of answered requests that have not ridden with a request yet. */
  flush(): Promise<void>;
  admin: RedisAdmin & AdminState;
  prefix: string;
  close(): Promise<void>;
}

/** The flags each deployment field comes from, for the message of an instance that differs. */
const FLAG_OF: Record<string, string> = {
  format: 'petstore-mock version',
  seed: '--seed',
  pets: '--pets',
  fixtures: '--fixtures',
  keys: '--key',
  scenario: '--scenario',
};

/** A start refused because the deployment in Redis was started with other settings. */
export class DeploymentMismatch extends UserError {
  override name = 'DeploymentMismatch';
}

/**
 * Connects to Redis and joins (or founds) the deployment under the prefix. Throws an Error naming
 * the URL when Redis cannot be reached, and `DeploymentMismatch` naming the setting that differs.
 */
export async function openSharedState(options: SharedStateOptions): Promise<SharedState> {
  // The prefix is a Redis hash tag: braces (or anything unusual in a key name) would break it.
  if (options.prefix !== undefined && !/^[A-Za-z0-9._:-]{1,64}$/.test(options.prefix)) {
    throw new MockOptionError(`the option "statePrefix" must be 1 to 64 letters, digits and ._:-, not ${JSON.stringify(options.prefix).slice(0, 80)}.`);
  }
  const prefix = `{${options.prefix ?? DEFAULT_STATE_PREFIX}}`;
  const conn = await StateConnection.open(options.url, options.commandTimeoutMs);
  const start = options.startScenario ? options.scenarios.load(options.startScenario) : undefined;
  const startSettings = start?.settings ?? options.scenarios.startSettings();
  const registry = new SettingsRegistry(conn, prefix, options.scenarios, startSettings);
  const fields: Record<string, string> = {
    format: '1',
    seed: String(options.seed ?? DEFAULT_SEED),
    pets: String(options.pets ?? DEFAULT_PET_COUNT),
    fixtures: options.fixtures ? digest(startSettings.base.all.map(petJson).join(',')) : 'none',
    keys: digest(JSON.stringify(startSettings.keys)),
    scenario: start ? `${start.source.name}-${digest(start.source.text)}` : 'none',
  };
  const register = async (): Promise<void> => {
    const reply = await conn.run('petDeploy', `${prefix}:deploy`, [prefix, ...Object.entries(fields).flat(), registry.start.init]);
    if (reply[0] !== 'ok') {
      const field = String(reply[1]);
      throw new DeploymentMismatch(
        `the deployment under the prefix ${prefix} in ${displayUrl(options.url)} was started with another ${FLAG_OF[field] ?? field} than this instance; ` +
          `start every instance with the same ${FLAG_OF[field] ?? field}, or give this one its own --state-prefix.`,
      );
    }
  };
  try {
    await register();
  } catch (error) {
    await conn.close();
    throw error;
  }
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const port = new RedisPort(conn, prefix, registry, maxSessions, register);
  return {
    port,
    admin: new RedisAdmin(conn, prefix, registry, options.scenarios, maxSessions, register, () => port.flush()),
    prefix,
    flush: () => port.flush(),
    close: async () => {
      // The journal entries of the last answers have not ridden with a request yet.
      await port.flush();
      await conn.close();
    },
  };
}
