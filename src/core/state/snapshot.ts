// A session's state as one JSON document (`petstore-mock/snapshot`, version 1): everything that
// decides its future answers. scenarios/snapshot.schema.json describes it; snapshot-restore.ts
// reads it back. Instants are ISO-8601 UTC, as the admin API writes them; rate windows are a list
// per key, so a change to the number of windows keeps the format.
import type { ScenarioSpec } from '../scenarios/scenario-spec.js';
import { NO_SCENARIO } from './session-settings.js';
import type { RuntimePosition } from '../scenarios/scenario-runtime.js';
import type { JournalEntry } from './journal.js';
import type { BucketState } from './limiter.js';
import type { SessionSettings, SessionState } from './session-state.js';
import type { Pet, PetStatus, PlanName } from '../types.js';
import { limitsText } from './windows.js';

export const SNAPSHOT_FORMAT = 'petstore-mock/snapshot';
export const SNAPSHOT_VERSION = 1;
/** The largest snapshot read, over HTTP or from a file: a full store, journal and fixtures fit well within it. */
export const MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024;

/** An animal; a `categoryId` past 2^53 is written as a string of digits, which JSON keeps exactly. */
export interface SnapshotPet {
  id: number;
  name: string;
  categoryId: number | string;
  status?: PetStatus;
}

/** One fixed window of a key: its length (`"1s"`, `"1m"`, `"1h"`, `"1d"`, or seconds), the instant it began, the requests it counted. */
export interface SnapshotWindow {
  window: string | number;
  start: string;
  count: number;
}

/** The windows, running wait and ban of one key, or of one address sending without a valid key. */
export interface SnapshotBucket {
  key?: string;
  address?: string;
  windows: SnapshotWindow[];
  /** The wait the last 429 announced: when it began and ends, and its refusals counted toward a ban or forgiven. */
  wait?: { from: string | null; until: string | null; counted: number; forgiven: number };
  bannedUntil?: string;
}

/** A key as the snapshot carries it: its limits as `"N/m"` and `"N/d"` windows. */
export interface SnapshotKey {
  key: string;
  plan: PlanName;
  limits: string[];
  custom?: boolean;
  revoked?: boolean;
}

/** The `petstore-mock/snapshot` document, version 1. */
export interface SnapshotDocument {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  /** The real time it was taken at; for people, restoring does not read it. */
  takenAt: string;
  /** The session it was taken from; for people, it restores into any session. */
  session: string;
  scenario: {
    name: string;
    definition: ScenarioSpec;
    position: RuntimePosition | null;
    /** How many calls each declared operation has answered (left out when none has); older documents have none. */
    declared?: Record<string, number>;
  };
  settings: {
    keys: SnapshotKey[];
    anonymousLimits: string[];
    ban: { after: number; durationMs: number; inFlight?: number };
    deprecation: { deprecatedAt: string; removalAt: string };
    journal: { size: number; details: boolean };
  };
  /** The session clock's instant, whether it is frozen, and (running) how far it stood from real time. */
  clock: { now: string; frozen: boolean; offsetMs?: number };
  /** `removed`: the ids of the animals the session removed, ascending (left out when none). */
  store: { base: SnapshotPet[]; created: SnapshotPet[]; nextId: number; removed?: number[] };
  limits: SnapshotBucket[];
  journal: { total: number; details: boolean; entries: JournalEntry[] };
}

/** The window lengths the document names (others it writes as their seconds). */
export const WINDOW_NAMES: Readonly<Record<number, string>> = { 1_000: '1s', 60_000: '1m', 3_600_000: '1h', 86_400_000: '1d' };

/** An instant as the document writes it. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** An animal as the document writes it. */
export function snapshotPet(pet: Pet): SnapshotPet {
  const out: SnapshotPet = { id: pet.id, name: pet.name, categoryId: typeof pet.categoryId === 'bigint' ? String(pet.categoryId) : pet.categoryId };
  if (pet.status !== undefined) out.status = pet.status;
  return out;
}

/** The scenario's definition, with the profile the session runs under as a document (a path or `--profile` would not travel). */
function definitionOf(settings: SessionSettings): ScenarioSpec {
  const definition = settings.definition ?? NO_SCENARIO;
  return settings.profile ? { ...definition, profile: settings.profile.document } : definition;
}

/** The scenario and settings parts of a document: what a session runs under, and its place in the steps. */
export function snapshotSettings(settings: SessionSettings, position: RuntimePosition | null): Pick<SnapshotDocument, 'scenario' | 'settings'> {
  return {
    scenario: { name: settings.scenario, definition: definitionOf(settings), position },
    settings: {
      keys: settings.keys.map((k) => {
        const key: SnapshotKey = { key: k.key, plan: k.plan, limits: limitsText(k.limits) };
        if (k.custom) key.custom = true;
        if (k.revoked) key.revoked = true;
        return key;
      }),
      anonymousLimits: limitsText(settings.anonymousLimits),
      ban: { ...settings.ban },
      deprecation: { deprecatedAt: iso(settings.deprecation.deprecatedAt), removalAt: iso(settings.deprecation.removalAt) },
      journal: { size: settings.journalSize, details: settings.journalDetails === true },
    },
  };
}

/** A bucket of the limiter as the document writes it. */
export function snapshotBucket(b: BucketState): SnapshotBucket {
  const windows = b.windows.map((w) => ({ window: WINDOW_NAMES[w.lengthMs] ?? w.lengthMs / 1000, start: iso(w.index * w.lengthMs), count: w.count }));
  const bucket: SnapshotBucket = b.id.startsWith('key:') ? { key: b.id.slice(4), windows } : { address: b.id.replace(/^addr:/, ''), windows };
  if (b.wait) {
    const { from, until, counted, forgiven } = b.wait;
    bucket.wait = { from: Number.isFinite(from) ? iso(from) : null, until: Number.isFinite(until) ? iso(until) : null, counted, forgiven };
  }
  if (b.bannedUntil !== undefined) bucket.bannedUntil = iso(b.bannedUntil);
  return bucket;
}

/** The clock part: a frozen clock stands at no fixed distance from real time. */
export function snapshotClock(now: number, real: number, frozen: boolean): SnapshotDocument['clock'] {
  return frozen ? { now: iso(now), frozen: true } : { now: iso(now), frozen: false, offsetMs: now - real };
}

/** The document of one in-memory session, at the session clock's present instant. */
export function takeSnapshot(state: SessionState): SnapshotDocument {
  const { settings, clock } = state;
  const now = clock.now();
  const real = clock.realTime();
  const content = state.store.content();
  const doc: SnapshotDocument = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    takenAt: iso(real),
    session: state.id,
    ...snapshotSettings(settings, state.runtime?.position?.() ?? null),
    clock: snapshotClock(now, real, clock.frozen),
    store: { base: content.base.all.map(snapshotPet), created: content.created.map(snapshotPet), nextId: content.nextId },
    limits: state.limiter.export().map(snapshotBucket),
    journal: { total: state.journal.total, details: state.journal.details, entries: state.journal.list(true) },
  };
  if (content.removed.length > 0) doc.store.removed = content.removed;
  if (state.declaredCalls.size > 0) doc.scenario.declared = Object.fromEntries(state.declaredCalls);
  return doc;
}
