import type { TimeSource } from './clock.js';
import { KeyIds, newKeySalt } from './key-id.js';
import { MockError } from '../errors.js';
import { defaultBudgets, type Budgets } from './budget.js';
import { SessionState, type SessionSettings } from './session-state.js';

/** The session id of requests without `X-Mock-Session`. */
export const DEFAULT_SESSION = 'default';
const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const DEFAULT_MAX_SESSIONS = 1000;
/** How many evictions `GET /__admin/evictions` remembers. */
export const MAX_EVICTIONS_KEPT = 1000;

/** A session dropped to make room for another. */
export interface Eviction {
  session: string;
  /** When, in real time (ISO-8601 UTC). */
  at: string;
  /** How many requests its journal still held when it was dropped. */
  journalEntries: number;
}

/** The session id a header names (the default one without it); throws `invalid_session` for an unusable id. */
export function sessionIdOf(header: string | string[] | undefined): string {
  if (header === undefined) return DEFAULT_SESSION;
  const id = Array.isArray(header) ? header[0] : header;
  // An empty list is a header that was not sent.
  if (id === undefined || id === DEFAULT_SESSION) return DEFAULT_SESSION;
  if (Array.isArray(header) && header.length > 1) {
    throw new MockError('invalid_session', 'X-Mock-Session was sent more than once; send one session id.');
  }
  if (!SESSION_ID.test(id)) {
    throw new MockError('invalid_session', 'X-Mock-Session must be 1 to 128 characters of letters, digits and ._:-; pick an id per test worker.');
  }
  return id;
}

/**
 * The states of one server. A session is created on its first request with the server's
 * settings; past `maxSessions` the least recently used one (never the default) is dropped.
 */
export class SessionRegistry {
  private states = new Map<string, SessionState>();
  /** Evicted session ids, oldest first, with when; bounded. */
  private evicted = new Map<string, Eviction>();
  readonly defaultSession: SessionState;
  readonly budgets: Budgets;
  /** This home's key ids, salted afresh for each: the deployment is this process's sessions. */
  readonly keyIds = new KeyIds(newKeySalt());

  constructor(
    private settings: SessionSettings,
    private readonly realNow: TimeSource,
    private readonly maxSessions = DEFAULT_MAX_SESSIONS,
    budgets: Budgets = defaultBudgets(),
  ) {
    this.budgets = budgets;
    // Past the total, the journals of the least recently used sessions lose their oldest entries
    // first, down to nine tenths of it, so that a trim is not needed on every entry.
    budgets.journal.reclaim = () => {
      const target = budgets.journal.limit * 0.9;
      for (const state of [...this.states.values(), this.defaultSession]) {
        while (budgets.journal.used > target && state.journal.dropOldest());
        if (budgets.journal.used <= target) return;
      }
    };
    this.defaultSession = new SessionState(DEFAULT_SESSION, settings, realNow, budgets);
  }

  /** The state of a header value; throws `invalid_session` for an unusable id. */
  resolve(header: string | string[] | undefined): SessionState {
    return this.resolveId(sessionIdOf(header));
  }

  /** The state of a session id already checked (`sessionIdOf`), created on first use. */
  resolveId(id: string): SessionState {
    if (id === DEFAULT_SESSION) return this.defaultSession;
    let state = this.states.get(id);
    if (state) {
      // Re-inserting keeps the map in least-recently-used order.
      this.states.delete(id);
      this.states.set(id, state);
      return state;
    }
    if (this.states.size >= this.maxSessions) this.evictOldest();
    state = new SessionState(id, this.settings, this.realNow, this.budgets);
    // Only an evicted id can be missing and in this list: its latest eviction is why it starts afresh.
    const eviction = this.evicted.get(id);
    if (eviction) state.evictedAt = eviction.at;
    this.states.set(id, state);
    return state;
  }

  /** The settings a new session starts with. */
  startSettings(): SessionSettings {
    return this.settings;
  }

  /** Changes the settings new sessions start with (a reloaded start scenario); existing ones keep theirs. */
  setStartSettings(settings: SessionSettings): void {
    this.settings = settings;
  }

  /**
   * Session `id` as it stands, or as it would start, without creating it (looking at a session must
   * not make one): a state not kept, charging nothing to the shared budgets, but checked against
   * them as a kept one would be.
   */
  probe(id: string): SessionState {
    if (id === DEFAULT_SESSION) return this.defaultSession;
    return this.states.get(id) ?? new SessionState(id, this.settings, this.realNow, this.budgets);
  }

  /** `probe` of a header value; throws `invalid_session` for an unusable id. */
  view(header: string | string[] | undefined): SessionState {
    return this.probe(sessionIdOf(header));
  }

  private evictOldest(): void {
    const [id, state] = this.states.entries().next().value as [string, SessionState];
    this.states.delete(id);
    this.evicted.delete(id);
    this.evicted.set(id, { session: id, at: new Date(this.realNow()).toISOString(), journalEntries: state.journal.size });
    state.release();
    if (this.evicted.size > MAX_EVICTIONS_KEPT) this.evicted.delete(this.evicted.keys().next().value as string);
  }

  /** The latest evictions, oldest first (a session evicted twice is listed at its latest). */
  evictions(): Eviction[] {
    return [...this.evicted.values()];
  }

  /** Every state, the default first. */
  all(): SessionState[] {
    return [this.defaultSession, ...this.states.values()];
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
  return [first!, ...rest.sort((a, b) => b.lastUsed - a.lastUsed)].map((w) => ({
    id: w.id,
    scenario: w.settings.scenario,
    // performance.now() counts from timeOrigin, so last use costs the hot path no extra clock read.
    lastUsedAt: new Date(Math.round(performance.timeOrigin + w.lastUsed)).toISOString(),
    requests: w.journal.total,
    clock: new Date(w.clock.now()).toISOString(),
  }));
}
