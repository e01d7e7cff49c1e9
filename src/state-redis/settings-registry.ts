// The settings sessions run under, shared by id: the start settings of the deployment, and each
// scenario a session switched to, stored in Redis by its text so instances on other hosts can
// compile the same settings. Each instance keeps what it compiled.
import { named } from '../core/errors.js';
import { RETRY_AFTER_SECONDS, stateUnavailable } from './state-errors.js';
import { createHash } from 'node:crypto';
import type { ScenarioCatalogue } from '../files/scenario-catalogue.js';
import type { KeyConfig } from '../core/types.js';
import { petJson } from '../core/state/base-data.js';
import type { SessionSettings } from '../core/state/session-state.js';
import type { StateConnection } from './connection.js';
import { absentKey, initKey, scenarioKey } from './keys.js';
import { callNamed } from './script-io.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type SnapshotDocument, type SnapshotPet } from '../core/state/snapshot.js';
import { readSnapshot } from '../core/state/snapshot-restore.js';
import { scenarioFromObject } from '../files/object-checks.js';
import type { ScenarioSpec } from '../core/scenarios/scenario-spec.js';

/** What settings restored from a snapshot are made of: the document's scenario, settings and animals. */
export interface SnapshotSettings {
  name: string;
  definition: ScenarioSpec;
  settings: SnapshotDocument['settings'];
  base: SnapshotPet[];
}

/** One settings id with what requests need from it, computed once. */
export interface SettingsEntry {
  id: string;
  settings: SessionSettings;
  keys: Map<string, KeyConfig>;
  /** What the script needs to apply the settings to a session. */
  init: string;
  /** The scenario's text and path as stored in Redis (none for the start settings). */
  scenario?: string;
}

export const START = 'start';
const REMEMBERED_SESSIONS = 10_000;

export function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The animals a scenario starts with, as a digest: its fixtures file is read on each host. */
export function animalsOf(settings: SessionSettings): string {
  return digest(settings.base.all.map(petJson).join(','));
}

function entryOf(id: string, settings: SessionSettings, scenario?: string): SettingsEntry {
  const spec = settings.runtimeSpec;
  const init = {
    start: settings.clock.start,
    frozen: settings.clock.frozen,
    usage: settings.usage,
    chaosSeed: (spec?.chaos?.seed ?? 0) >>> 0,
    latencySeed: (spec?.latency?.seed ?? 0) >>> 0,
    nextId: settings.base.maxId + 1,
  };
  return {
    id,
    settings,
    keys: new Map(settings.keys.map((k) => [k.key, k])),
    init: JSON.stringify(init),
    scenario,
  };
}

/** The settings this instance knows, and the settings id it last saw each session run under. */
export class SettingsRegistry {
  private readonly entries = new Map<string, SettingsEntry>();
  /** Loads under way, by settings id. */
  private readonly loading = new Map<string, Promise<SettingsEntry>>();
  private readonly bySession = new Map<string, string>();
  readonly start: SettingsEntry;

  constructor(
    private readonly conn: StateConnection,
    private readonly prefix: string,
    private readonly scenarios: ScenarioCatalogue,
    start: SessionSettings,
  ) {
    this.start = entryOf(START, start);
    this.entries.set(START, this.start);
  }

  /** The settings a session most likely runs under; the script corrects a stale guess. */
  guess(session: string): SettingsEntry {
    return this.entries.get(this.bySession.get(session) ?? START) ?? this.start;
  }

  /** Notes the settings a session runs under, loading them from Redis when this instance has not seen them. */
  async seen(session: string, id: string): Promise<SettingsEntry> {
    if (this.bySession.size >= REMEMBERED_SESSIONS) this.bySession.clear();
    this.bySession.set(session, id);
    return this.entry(id);
  }

  async entry(id: string): Promise<SettingsEntry> {
    return this.entries.get(id) ?? this.loadOnce(id);
  }

  /** One load per id at a time: the decisions of a batch found stale together wait for the same one. */
  private loadOnce(id: string): Promise<SettingsEntry> {
    let loading = this.loading.get(id);
    if (!loading) {
      loading = this.load(id).finally(() => this.loading.delete(id));
      this.loading.set(id, loading);
    }
    return loading;
  }

  private async load(id: string): Promise<SettingsEntry> {
    const raw = (await callNamed(this.conn, 'petSettings', this.keysOf(id), this.prefix, { action: 'get', id })).text;
    if (typeof raw !== 'string')
      throw new Error(named(`the shared state names settings ${id}, which it does not hold; reset the session (POST /__admin/reset).`));
    const { text, file, animals, snapshot, object } = JSON.parse(raw) as {
      text: string;
      file: string;
      animals?: string;
      snapshot?: SnapshotSettings;
      object?: unknown;
    };
    const settings =
      snapshot !== undefined
        ? this.settingsOfSnapshot(snapshot)
        : object !== undefined
          ? scenarioFromObject(object, this.scenarios.hostData)
          : this.scenarios.fromText(text, file);
    if (animals !== undefined && animalsOf(settings) !== animals) {
      // Same scenario text, other fixtures content on this host: serving it would give this session two data sets.
      throw stateUnavailable(
        named(
          `this replica reads the fixtures of scenario ${settings.scenario} (next to ${file}) with other content than the replica that switched the session to it; ` +
            `give every replica the same files. Retry after ${RETRY_AFTER_SECONDS} s.`,
        ),
      );
    }
    const entry = entryOf(id, settings, raw);
    this.entries.set(id, entry);
    return entry;
  }

  /** Compiles a scenario (by name, or by path for the library), stores it in Redis and returns its entry. */
  async register(nameOrFile: string, byName: boolean): Promise<SettingsEntry> {
    const { settings, source } = byName ? this.scenarios.loadByName(nameOrFile) : this.scenarios.load(nameOrFile);
    // The animals are part of the id: the same text with other fixtures content is another scenario.
    const animals = animalsOf(settings);
    return this.stored(`${source.name}-${digest(`${source.text}\n${animals}`)}`, settings, JSON.stringify({ text: source.text, file: source.file, animals }));
  }

  /** Checks a scenario sent as an object (throws `scenario_invalid`) and stores it under an id of its content. */
  async registerObject(value: unknown): Promise<SettingsEntry> {
    const settings = scenarioFromObject(value, this.scenarios.hostData);
    const raw = JSON.stringify({ object: value });
    return this.stored(`${settings.scenario}-object-${digest(raw)}`, settings, raw);
  }

  /** Stores the settings of a restored snapshot (already checked) under an id of their content. */
  async registerRestored(source: SnapshotSettings): Promise<SettingsEntry> {
    const raw = JSON.stringify({ snapshot: source });
    const id = `snapshot-${digest(raw)}`;
    // Known here means stored: a Redis that lost it answers `missing`, and the call stores it again.
    return this.entries.get(id) ?? this.stored(id, this.settingsOfSnapshot(source), raw);
  }

  /** The entry of an id (made from `settings` and `raw` when new), stored in Redis. */
  private async stored(id: string, settings: SessionSettings, raw: string): Promise<SettingsEntry> {
    const entry = this.entries.get(id) ?? entryOf(id, settings, raw);
    this.entries.set(id, entry);
    await this.store(entry);
    return entry;
  }

  /** The settings a snapshot's parts make, as readSnapshot makes them (the parts were checked when restored). */
  private settingsOfSnapshot(source: SnapshotSettings): SessionSettings {
    const document: SnapshotDocument = {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      takenAt: new Date(0).toISOString(),
      session: START,
      scenario: { name: source.name, definition: source.definition, position: null },
      settings: source.settings,
      clock: { now: new Date(0).toISOString(), frozen: true },
      store: { base: source.base, created: [], nextId: source.base.reduce((max, p) => Math.max(max, p.id), 0) + 1 },
      limits: [],
      journal: { total: 0, details: source.settings.journal.details, entries: [] },
    };
    return readSnapshot(document, () => undefined, [this.start.settings.base], undefined).settings;
  }

  /** Writes an entry's scenario text and init into Redis again (after Redis lost them). */
  async restore(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (entry) await this.store(entry);
  }

  private keysOf(id: string): string[] {
    return [scenarioKey(this.prefix, id), initKey(this.prefix, id), absentKey(this.prefix)];
  }

  private async store(entry: SettingsEntry): Promise<void> {
    if (entry.scenario === undefined) return;
    await callNamed(this.conn, 'petSettings', this.keysOf(entry.id), this.prefix, { action: 'put', id: entry.id, scenario: entry.scenario, init: entry.init });
  }
}
