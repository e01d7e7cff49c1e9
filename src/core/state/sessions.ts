import type { TimeSource } from './clock.js';
import { MockError } from '../errors.js';
import { World, type WorldSettings } from './world.js';

/** The session id of requests without `X-Mock-Session`. */
export const DEFAULT_SESSION = 'default';
const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const DEFAULT_MAX_SESSIONS = 1000;

/**
 * The worlds of one server. A session is created on its first request with the server's
 * settings; past `maxSessions` the least recently used one (never the default) is dropped.
 */
export class SessionRegistry {
  private worlds = new Map<string, World>();
  readonly defaultWorld: World;

  constructor(
    private settings: WorldSettings,
    private readonly realNow: TimeSource,
    private readonly maxSessions = DEFAULT_MAX_SESSIONS,
  ) {
    this.defaultWorld = new World(DEFAULT_SESSION, settings, realNow);
  }

  /** The world of a header value; throws `invalid_session` for an unusable id. */
  resolve(header: string | string[] | undefined): World {
    if (header === undefined) return this.defaultWorld;
    const id = Array.isArray(header) ? header[0] : header;
    if (id === DEFAULT_SESSION) return this.defaultWorld;
    if (Array.isArray(header) && header.length > 1) {
      throw new MockError('invalid_session', 'X-Mock-Session was sent more than once; send one session id.');
    }
    if (!SESSION_ID.test(id)) {
      throw new MockError('invalid_session', 'X-Mock-Session must be 1 to 128 characters of letters, digits and ._:-; pick an id per test worker.');
    }
    let world = this.worlds.get(id);
    if (world) {
      // Re-inserting keeps the map in least-recently-used order.
      this.worlds.delete(id);
      this.worlds.set(id, world);
      return world;
    }
    if (this.worlds.size >= this.maxSessions) this.worlds.delete(this.worlds.keys().next().value as string);
    world = new World(id, this.settings, this.realNow);
    this.worlds.set(id, world);
    return world;
  }

  /** Every world, the default first. */
  all(): World[] {
    return [this.defaultWorld, ...this.worlds.values()];
  }
}

/** One session as `GET /__admin/sessions` lists it. */
export interface SessionSummary {
  id: string;
  scenario: string;
  /** Wall-clock time of the session's last API request, or of its creation (ISO-8601 UTC). */
  lastUsedAt: string;
  /** API requests answered since the session's last reset. */
  requests: number;
  /** The session's own (virtual) clock. */
  clock: string;
}

/** The sessions of a registry, the default first, then the most recently used first. */
export function summarizeSessions(registry: SessionRegistry): SessionSummary[] {
  const [first, ...rest] = registry.all();
  return [first, ...rest.sort((a, b) => b.lastUsed - a.lastUsed)].map((w) => ({
    id: w.id,
    scenario: w.settings.scenario,
    // performance.now() counts from timeOrigin, so last use costs the hot path no extra clock read.
    lastUsedAt: new Date(Math.round(performance.timeOrigin + w.lastUsed)).toISOString(),
    requests: w.journal.total,
    clock: new Date(w.clock.now()).toISOString(),
  }));
}
