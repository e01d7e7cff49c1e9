import { readFileSync } from 'node:fs';
import { parseDuration, type ClockState } from './core/clock.js';
import { MockEngine } from './core/engine.js';
import { FixtureError, parseFixtures } from './core/fixtures.js';
import type { JournalEntry } from './core/journal.js';
import { parseKeySpec } from './core/plans.js';
import { ScenarioError } from './core/scenario.js';
import { DEFAULT_PET_COUNT, DEFAULT_SEED } from './core/seed.js';
import { buildBaseData, defaultSettings, type DataOptions } from './core/settings.js';
import type { BaseData } from './core/store.js';
import type { KeyConfig, Pet } from './core/types.js';
import type { World, WorldSettings } from './core/world.js';
import { listen, type AdminContext } from './http/server.js';
import type { ScenarioHost } from './scenarios.js';

export type { ClockState } from './core/clock.js';
export type { JournalEntry } from './core/journal.js';
export type { CoreRequest, CoreResponse, KeyConfig, Limits, Pet, PetStatus, PlanName } from './core/types.js';
export { ERROR_CATALOGUE, type ErrorCode } from './core/errors.js';
export { openapiDocument } from './core/openapi.js';
export { PLAN_LIMITS } from './core/plans.js';
export { MockEngine } from './core/engine.js';
export { ScenarioError } from './core/scenario.js';

/** Options of `startMock` (and of the CLI, which maps its flags onto them). */
export interface MockOptions {
  /** Port to listen on; 0 (the library's default) takes a free one. */
  port?: number;
  /** Interface to listen on; 127.0.0.1 by default. */
  host?: string;
  /** Faker seed for the generated animals; the same seed gives byte-identical answers. */
  seed?: number;
  /** How many animals to generate (150 by default). */
  pets?: number;
  /** A fixtures file (JSON array of animals or json-server db.json), or the animals themselves. */
  fixtures?: string | readonly Pet[];
  /** A shipped scenario name or a scenario file path. */
  scenario?: string;
  /** Extra keys as `KEY:PLAN[:PER_MINUTE:PER_DAY]` strings or objects. */
  keys?: readonly (string | KeyConfig)[];
  /** Protects the admin API: admin calls must send `Authorization: Bearer <token>`. */
  adminToken?: string;
  /** Called once per answered API request (the CLI logs with it). */
  onRequest?: (entry: JournalEntry) => void;
  /** The real time source the virtual clocks run on (Date.now by default). */
  now?: () => number;
}

/** The clock of the default session, as tests drive it. */
export interface MockClock {
  now(): Date;
  state(): ClockState;
  set(instant: Date | string | number): void;
  /** Advances by a duration such as '61s', '1m30s', '1d', or milliseconds. */
  advance(duration: string | number): void;
  freeze(): void;
  unfreeze(): void;
}

/** One session's world, as tests drive it: the default session, or an `X-Mock-Session` id. */
export interface SessionHandle {
  /** The session's virtual clock. */
  clock: MockClock;
  /** Restores the session's store, counters, bans, clock and journal, under its current scenario. */
  reset(): void;
  /** Switches the session to a scenario (a shipped name or a file path) and starts it afresh. */
  useScenario(nameOrFile: string): Promise<void>;
  /** The session's request journal, oldest first. */
  requests(): JournalEntry[];
}

/** A running mock, as `startMock` returns it; its session methods act on the default session. */
export interface RunningMock extends SessionHandle {
  /** The API base URL, e.g. http://127.0.0.1:4010/v1. */
  url: string;
  /** The server's origin, e.g. http://127.0.0.1:4010. */
  origin: string;
  port: number;
  /** The API keys the mock accepts. */
  keys: KeyConfig[];
  /** The world that requests with `X-Mock-Session: id` see (created on first use). */
  session(id: string): SessionHandle;
  /** The core, for in-process use. */
  engine: MockEngine;
  close(): Promise<void>;
}

/** What scenarios need from a server: its command-line settings and a cache of generated stores. */
function prepareHost(options: MockOptions): ScenarioHost {
  let pets: readonly Pet[] | undefined;
  if (typeof options.fixtures === 'string') {
    let text: string;
    try {
      text = readFileSync(options.fixtures, 'utf8');
    } catch (error) {
      throw new FixtureError(`petstore-mock: cannot read the fixtures file ${options.fixtures} (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the path given to --fixtures.`);
    }
    pets = parseFixtures(text, options.fixtures);
  } else if (options.fixtures) {
    pets = options.fixtures;
  }
  const keys = (options.keys ?? []).map((k) => (typeof k === 'string' ? parseKeySpec(k) : k));
  const generated = new Map<string, BaseData>();
  const baseFor = (data: DataOptions): BaseData => {
    if (data.pets) return buildBaseData(data);
    // Switching scenarios or sessions must not regenerate (or duplicate) a large store.
    const id = `${data.seed ?? options.seed ?? DEFAULT_SEED}:${data.count ?? options.pets ?? DEFAULT_PET_COUNT}`;
    let base = generated.get(id);
    if (!base) {
      base = buildBaseData({ seed: data.seed ?? options.seed, count: data.count ?? options.pets });
      generated.set(id, base);
    }
    return base;
  };
  const base = pets ? buildBaseData({ pets }) : baseFor({});
  return { defaults: defaultSettings(base, keys), baseFor };
}

/**
 * The scenarios a server can switch to: the shipped ones, and the files it has loaded (from
 * `--scenario FILE` or the library), by name. Loads the YAML and schema code on first use.
 */
class ScenarioCatalogue {
  private readonly files = new Map<string, string>();

  constructor(private readonly host: ScenarioHost) {}

  async settings(nameOrFile: string): Promise<WorldSettings> {
    const { loadScenario } = await import('./scenarios.js');
    const source = loadScenario(this.files.get(nameOrFile) ?? nameOrFile);
    const settings = source.settings(this.host);
    // A file loaded once can be switched back to by its name, also over HTTP.
    if (!isPlainName(nameOrFile)) this.files.set(source.name, source.file);
    return settings;
  }

  /** Over HTTP only names are taken: the admin API does not read paths it is sent. */
  async settingsByName(name: string): Promise<WorldSettings> {
    if (!isPlainName(name)) {
      throw new ScenarioError(`petstore-mock: the admin API switches scenarios by name, not ${JSON.stringify(name)}; load a file with --scenario FILE or the library's useScenario(FILE), then switch to it by its name.`);
    }
    return this.settings(name);
  }

  async list(): Promise<{ name: string; description: string }[]> {
    const { loadScenario, shippedScenarios } = await import('./scenarios.js');
    const loaded = [...this.files.values()].map((file) => loadScenario(file));
    const shipped = shippedScenarios().filter((s) => !this.files.has(s.name));
    return [...shipped, ...loaded].map(({ name, description }) => ({ name, description }));
  }
}

function isPlainName(name: string): boolean {
  return /^[a-z0-9][a-z0-9-]*$/.test(name);
}

/** Wraps a world's clock for tests. */
export function clockOf(world: () => World): MockClock {
  return {
    now: () => new Date(world().clock.now()),
    state: () => world().clock.state(),
    set: (instant) => {
      const ms = instant instanceof Date ? instant.getTime() : typeof instant === 'number' ? instant : Date.parse(instant);
      if (Number.isNaN(ms)) throw new Error(`petstore-mock: clock.set needs a Date, an ISO-8601 string or epoch milliseconds, not ${JSON.stringify(instant)}.`);
      world().clock.set(ms);
    },
    advance: (duration) => {
      const ms = parseDuration(duration);
      if (ms === undefined) throw new Error(`petstore-mock: clock.advance needs a duration such as '61s', '1m30s' or '1d', not ${JSON.stringify(duration)}.`);
      world().clock.advance(ms);
    },
    freeze: () => world().clock.freeze(),
    unfreeze: () => world().clock.unfreeze(),
  };
}

/**
 * Starts a mock server for tests: `const mock = await startMock(); … await mock.close()`.
 * It listens on 127.0.0.1 and a free port unless told otherwise.
 */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = prepareHost(options);
  const scenarios = new ScenarioCatalogue(host);
  const settings = options.scenario ? await scenarios.settings(options.scenario) : host.defaults;
  const engine = new MockEngine({ settings, now: options.now, onRequest: options.onRequest });
  const useScenario = async (nameOrFile: string, session?: string): Promise<void> => {
    engine.sessions.resolve(session).apply(await scenarios.settings(nameOrFile));
  };
  const admin: AdminContext = {
    listScenarios: () => scenarios.list(),
    useScenario: async (name, session) => engine.sessions.resolve(session).apply(await scenarios.settingsByName(name)),
  };
  const running = await listen(engine, { port: options.port ?? 0, host: options.host ?? '127.0.0.1', adminToken: options.adminToken, admin });
  const handle = (session: string | undefined): SessionHandle => {
    const world = (): World => engine.sessions.resolve(session);
    return {
      clock: clockOf(world),
      reset: () => world().reset(),
      useScenario: (nameOrFile) => useScenario(nameOrFile, session),
      requests: () => world().journal.list(),
    };
  };
  return {
    url: `${running.origin}/v1`,
    origin: running.origin,
    port: Number(new URL(running.origin).port),
    keys: [...settings.keys],
    ...handle(undefined),
    session: (id) => handle(id),
    engine,
    close: () => running.close(),
  };
}
