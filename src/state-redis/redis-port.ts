// The Redis home of state behind the pipeline's port: one script call decides a request (and
// carries the journal entries of earlier answers); nothing of the pipeline lives here.
import { named } from '../core/errors.js';
import type { Decided, DecideInput, RecordedEntry, StatePort } from '../core/state/state-port.js';
import { DEFAULT_SESSION } from '../core/state/sessions.js';
import type { WorldSettings } from '../core/state/world.js';
import { leanInput } from './api-script.js';
import type { StateConnection } from './connection.js';
import type { SettingsRegistry } from './settings-registry.js';

/** What the API script answers: a decision, or why it could not take one. */
type ScriptAnswer = ({ st: 'ok' } & Decided) | { st: 'stale'; set: string } | { st: 'unregistered' };

/** The `StatePort` of instances sharing one Redis. */
export class RedisPort implements StatePort {
  private lastLostReport = 0;
  /** Entries of answered requests that ride with the next script call (or a flush when none comes). */
  private pending: RecordedEntry[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly conn: StateConnection,
    private readonly prefix: string,
    private readonly registry: SettingsRegistry,
    private readonly maxSessions: number,
    private readonly register: () => Promise<void>,
  ) {}

  get startSettings(): WorldSettings {
    return this.registry.start.settings;
  }

  guess(sid: string): WorldSettings {
    return this.registry.guess(sid).settings;
  }

  async decide(sid: string, plan: (settings: WorldSettings) => DecideInput): Promise<{ settings: WorldSettings; decided: Decided }> {
    let entry = this.registry.guess(sid);
    for (let attempt = 0; ; attempt++) {
      const batch = this.pending;
      this.pending = [];
      const journal = batch.map(({ entry: _text, ...bounds }) => bounds);
      const input = { ...plan(entry.settings), sid, set: entry.id, max: this.maxSessions, journal };
      let raw: unknown;
      try {
        // The entries' texts go as arguments of their own: inside the JSON they would be escaped twice.
        raw = await this.conn.run('petApi', `${this.prefix}:s:${sid}`, [this.prefix, JSON.stringify(leanInput(input)), ...batch.map(stored)]);
      } catch (error) {
        if (batch.length > 0) this.journalLost(error);
        throw error;
      }
      const answer = JSON.parse(String(raw)) as ScriptAnswer;
      if (answer.st === 'ok') return { settings: entry.settings, decided: answer };
      if (attempt >= 3) throw new Error(named(`the shared state kept changing under session ${sid}`));
      if (answer.st === 'stale') entry = await this.registry.seen(sid, answer.set);
      else await this.register();
    }
  }

  record(entry: RecordedEntry): void {
    this.pending.push(entry);
    // Under load the next request carries it; when none comes within 5 ms, a flush of its own does.
    this.flushTimer ??= setTimeout(() => void this.flush(), 5);
  }

  /** Sends the journal entries no request has carried yet (before a journal read, and at close). */
  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    const bounds = batch.map(({ entry: _text, ...rest }) => rest);
    const args = [this.prefix, JSON.stringify(bounds), ...batch.map(stored)];
    await this.conn.run('petJournal', `${this.prefix}:s:${batch[0]?.sid ?? DEFAULT_SESSION}`, args).catch((error: unknown) => {
      this.journalLost(error);
    });
  }

  /** Says once in a while that journal entries were lost: the answers were given, the record of them is missing. */
  private journalLost(error: unknown): void {
    const now = Date.now();
    if (now - this.lastLostReport < 10_000) return;
    this.lastLostReport = now;
    process.stderr.write(
      `${named(`a journal entry could not be written to the shared state (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); the answer was given, GET /__admin/requests will miss it.`)}\n`,
    );
  }
}

/** An entry as the journal list keeps it, "BYTES JSON" (so the oldest can go with its size), built here rather than in Lua. */
function stored(e: RecordedEntry): string {
  return `${e.bytes} ${e.entry}`;
}
