// The admin API's calls on a shared state: each is one script run in Redis, so a reset, a clock
// move or a scenario switch on any instance is seen by every instance at once.
import type { KeyIds } from '../core/state/key-id.js';
import { named } from '../core/errors.js';
import { keyView } from '../core/state/key-view.js';
import { checkClockChange, type AdminState, type ClockChange, type JournalInfo, type StateReport } from '../core/state/backend.js';
import type { ClockState } from '../core/state/clock.js';
import type { JournalEntry } from '../core/state/journal.js';
import { sessionIdOf, type Eviction, type SessionSummary } from '../core/state/sessions.js';
import { keyBucket } from '../core/state/session-state.js';
import type { ScenarioCatalogue } from '../files/scenario-catalogue.js';
import { displayUrl, type StateConnection } from './connection.js';
import { limitsInput, type PortRateDecision } from './redis-plan.js';
import type { SettingsEntry, SettingsRegistry } from './settings-registry.js';
import type { SnapshotDocument } from '../core/state/snapshot.js';
import { NO_SCENARIO } from '../core/state/session-settings.js';
import type { ScenarioSpec } from '../core/scenarios/scenario-spec.js';
import { redisSnapshot, restorePayload, type RawSnapshot, type RestorePayload } from './redis-snapshot.js';
import { readSnapshot } from '../core/state/snapshot-restore.js';
import { checkSnapshotSchema } from '../files/object-checks.js';
import { adminCallKeys } from './keys.js';
import { journalEntries } from './journal-runs.js';

/** What the admin script answers, in named fields. */
interface AdminAnswer {
  st: 'ok' | 'pending' | 'missing' | 'unregistered' | 'expired' | 'stale' | 'evict' | 'relist';
  /** The session to drop for room, whose keys the call did not declare (`evict`). */
  victim?: string;
  set: string;
  now: string;
  frozen: boolean;
  extra: unknown;
  sessions: number;
  total: number;
  details: string;
  entries: number;
}

/** What one admin script run tells: the session's settings, its clock, and the action's result. */
interface AdminReply {
  sid: string;
  entry: SettingsEntry;
  clock: ClockState;
  now: number;
  extra: unknown[];
  sessions: number;
  journal: JournalInfo;
}

/** An admin call's arguments beyond the session: an argument, or the buckets to report. */
interface AdminArgs {
  arg?: string;
  /** A restore's writes (`restore`, whose `arg` is the settings id). */
  restore?: RestorePayload;
  peeks?: { bucket: string; lim: number[] }[];
}

export class RedisAdmin implements AdminState {
  constructor(
    private readonly conn: StateConnection,
    private readonly prefix: string,
    private readonly registry: SettingsRegistry,
    private readonly scenarios: ScenarioCatalogue,
    private readonly maxSessions: number,
    private readonly register: () => Promise<void>,
    /** Sends this instance's journal entries still on their way, so a read of the journal need not wait for them. */
    private readonly flushJournal: () => Promise<void>,
    private readonly ids: () => KeyIds,
  ) {}

  get keyIds(): KeyIds {
    return this.ids();
  }

  /** The last session clock an admin call read: it dates that call's answer. */
  private lastNow: number | undefined;

  dateNow(): number {
    return this.lastNow ?? Date.now();
  }

  async evictions(): Promise<Eviction[]> {
    const r = await this.call(undefined, 'evictions');
    return (r.extra as { session: string; at: string; entries: number }[]).map((e) => ({
      session: e.session,
      at: new Date(Number(e.at)).toISOString(),
      journalEntries: Number(e.entries),
    }));
  }

  stateReport(): StateReport {
    return { engine: 'redis', url: displayUrl(this.conn.url), prefix: this.prefix, reachable: this.conn.connected };
  }

  private async call(session: string | undefined, action: string, args: AdminArgs = {}): Promise<AdminReply> {
    const sid = sessionIdOf(session);
    if (action === 'journal' || action === 'jinfo' || action === 'details' || action === 'snapshot') await this.flushJournal();
    const fields = { sid, max: this.maxSessions, action, arg: args.arg ?? '', peeks: args.peeks ?? [], rs: args.restore };
    // Other sessions whose keys the call touches: the one to drop for room, or (listing) every one.
    let also: string[] = action === 'sessions' ? await this.conn.sessionIds(this.prefix) : [];
    for (let attempt = 0; ; attempt++) {
      // A reset applies the settings the session runs: the guess is declared, and corrected below when stale.
      const set = action === 'apply' || action === 'restore' ? (args.arg ?? '') : this.registry.guess(sid).id;
      // The Redis instant after which the call is given up (answered 503): a later start changes nothing.
      const input = JSON.stringify({ ...fields, set, dl: this.conn.deadline() });
      const reply = JSON.parse(String(await this.conn.run('petAdmin', adminCallKeys(this.prefix, sid, set, also), [this.prefix, input]))) as AdminAnswer;
      if (reply.st === 'expired') throw this.conn.expired();
      if (reply.st === 'stale') {
        await this.registry.seen(sid, reply.set);
        continue;
      }
      if (reply.st === 'evict' || reply.st === 'relist') {
        // Sessions come and go under other replicas: try again with the keys named (a bounded number of times).
        if (attempt >= 20) throw new Error(named(`the shared state kept changing under the admin call ${action}`));
        also = reply.st === 'evict' ? [reply.victim ?? ''] : await this.conn.sessionIds(this.prefix);
        continue;
      }
      if (reply.st === 'ok') {
        const entry = await this.registry.seen(sid, reply.set);
        const now = Number(reply.now);
        this.lastNow = now;
        const journal: JournalInfo = {
          session: sid,
          details: reply.details !== '' ? reply.details === '1' : entry.settings.journalDetails === true,
          entries: reply.entries,
          capacity: entry.settings.journalSize,
          total: reply.total,
        };
        return {
          sid,
          entry,
          now,
          clock: { now: new Date(now).toISOString(), frozen: reply.frozen },
          // Lua's JSON writes an empty list as {}.
          extra: Array.isArray(reply.extra) ? (reply.extra as unknown[]) : [],
          sessions: reply.sessions,
          journal,
        };
      }
      if (reply.st === 'pending') {
        // Journal entries of answered requests are on their way (at most 2 s, then let go).
        attempt--;
        await new Promise((resolve) => setTimeout(resolve, 1));
        continue;
      }
      if (attempt >= 3) throw new Error(named(`the shared state kept changing under the admin call ${action}`));
      if (reply.st === 'missing') await this.registry.restore(reply.set);
      else await this.register();
    }
  }

  async health(session: string | undefined): Promise<{ sessions: number; scenario: string; state: StateReport }> {
    const r = await this.call(session, 'state');
    return { sessions: r.sessions + 1, scenario: r.entry.settings.scenario, state: this.stateReport() };
  }

  async reset(session: string | undefined): Promise<{ session: string; scenario: string; clock: ClockState }> {
    const r = await this.call(session, 'reset');
    return { session: r.sid, scenario: r.entry.settings.scenario, clock: r.clock };
  }

  async scenario(session: string | undefined): Promise<{ name: string; definition: ScenarioSpec; clock: ClockState }> {
    const r = await this.call(session, 'state');
    return { name: r.entry.settings.scenario, definition: r.entry.settings.definition ?? NO_SCENARIO, clock: r.clock };
  }

  /** Switches the session to a scenario given as an object, checked as a file is (`scenario_invalid`). */
  async applyScenario(session: string | undefined, scenario: unknown): Promise<{ name: string; session: string; clock: ClockState }> {
    const sid = sessionIdOf(session);
    return this.apply(sid, await this.registry.registerObject(scenario));
  }

  /** By name over HTTP; the library may also pass a file path (`byName` false). */
  async useScenario(name: string, session: string | undefined, byName = true): Promise<{ name: string; session: string; clock: ClockState }> {
    const sid = sessionIdOf(session);
    return this.apply(sid, await this.registry.register(name, byName));
  }

  private async apply(sid: string, entry: SettingsEntry): Promise<{ name: string; session: string; clock: ClockState }> {
    const r = await this.call(sid, 'apply', { arg: entry.id });
    return { name: r.entry.settings.scenario, session: sid, clock: r.clock };
  }

  async removalAt(session: string | undefined): Promise<number> {
    return (await this.call(session, 'state')).entry.settings.deprecation.removalAt;
  }

  async clock(session: string | undefined): Promise<ClockState> {
    return (await this.call(session, 'state')).clock;
  }

  async changeClock(session: string | undefined, change: ClockChange): Promise<ClockState> {
    const before = await this.call(session, 'state');
    checkClockChange(before.now, change);
    const ops: string[] = [];
    if (change.frozen === true) ops.push('freeze');
    if (change.set !== undefined) ops.push(`set:${change.set}`);
    if (change.advance !== undefined) ops.push(`advance:${change.advance}`);
    if (change.frozen === false) ops.push('unfreeze');
    return (await this.call(session, 'clock', { arg: ops.join(',') })).clock;
  }

  async requests(session: string | undefined, details = false): Promise<JournalEntry[]> {
    const entries = journalEntries((await this.call(session, 'journal')).extra as string[]);
    if (!details) for (const entry of entries) delete entry.details;
    return entries;
  }

  /** The session as a snapshot document, read in one script run: no request of it lands halfway. */
  async snapshot(session: string | undefined): Promise<SnapshotDocument> {
    const r = await this.call(session, 'snapshot');
    const raw = r.extra[0] as RawSnapshot | undefined;
    if (raw === undefined) throw new Error(named('the shared state answered a snapshot without the session; retry the admin call'));
    return redisSnapshot(r.sid, r.entry.settings, raw);
  }

  /**
   * Replaces the session's state with a snapshot's in one script run: no request of the session
   * sees half of it. The document is checked whole, and its bounds, before anything is written.
   */
  async restore(session: string | undefined, document: unknown): Promise<{ session: string; scenario: string; clock: ClockState }> {
    const sid = sessionIdOf(session);
    const restored = readSnapshot(document, checkSnapshotSchema, [this.registry.start.settings.base], this.keyIds);
    // Its bounds too, before anything is stored (the settings the registry compiles are these).
    const payload = restorePayload(sid, restored, restored.settings);
    const doc = document as SnapshotDocument;
    const entry = await this.registry.registerRestored({
      name: doc.scenario.name,
      definition: doc.scenario.definition,
      settings: doc.settings,
      base: doc.store.base,
    });
    const r = await this.call(sid, 'restore', { arg: entry.id, restore: payload });
    return { session: sid, scenario: r.entry.settings.scenario, clock: r.clock };
  }

  async journal(session: string | undefined): Promise<JournalInfo> {
    return (await this.call(session, 'jinfo')).journal;
  }

  async recordDetails(session: string | undefined, on: boolean): Promise<JournalInfo> {
    return (await this.call(session, 'details', { arg: on ? '1' : '0' })).journal;
  }

  async sessions(): Promise<SessionSummary[]> {
    const r = await this.call(undefined, 'sessions');
    const rows = r.extra as { id: string; set: string; total: number | null; lastUsed: string; now: string }[];
    const summaries = await Promise.all(
      rows.map(async ({ id, set: setId, total, lastUsed, now }) => ({
        lastUsed: Number(lastUsed),
        summary: {
          id,
          scenario: (await this.registry.entry(setId)).settings.scenario,
          lastUsedAt: new Date(Math.round(Number(lastUsed) / 1000)).toISOString(),
          requests: Number(total),
          clock: new Date(Number(now)).toISOString(),
        },
      })),
    );
    const [first, ...rest] = summaries;
    return [first, ...rest.sort((a, b) => b.lastUsed - a.lastUsed)].filter((row) => row !== undefined).map((row) => row.summary);
  }

  async keys(session: string | undefined): Promise<ReturnType<typeof keyView>[]> {
    const sid = sessionIdOf(session);
    const entry = this.registry.guess(sid);
    const keys = [...entry.keys.values()];
    const r = await this.call(sid, 'peek', { peeks: keys.map((k) => ({ bucket: keyBucket(k.key), lim: limitsInput(k.limits) })) });
    // The session may have switched settings since this instance last looked: ask again with the right keys.
    if (r.entry !== entry) return this.keys(session);
    const reports = r.extra as PortRateDecision[];
    return keys.map((k, i) => {
      const report = reports[i];
      if (report === undefined) throw new Error(named(`the shared state reported ${reports.length} keys for ${keys.length} asked; retry the admin call`));
      return keyView(
        k,
        {
          limit: Number(report.report.limit),
          remaining: Number(report.report.remaining),
          reset: Number(report.report.reset),
          bannedUntil: report.outcome === 'banned' ? Number(report.bannedUntil) : undefined,
        },
        this.keyIds,
      );
    });
  }

  listScenarios(): { name: string; description: string }[] {
    return this.scenarios.list();
  }
}
