import { readFileSync } from 'node:fs';
import { parseDuration, type ClockState } from './core/clock.js';
import { MockEngine } from './core/engine.js';
import { FixtureError, parseFixtures } from './core/fixtures.js';
import type { JournalEntry } from './core/journal.js';
import { parseKeySpec } from './core/plans.js';
import { buildBaseData, defaultSettings } from './core/settings.js';
import type { KeyConfig, Pet } from './core/types.js';
import type { World, WorldSettings } from './core/world.js';
import { answerFetch } from './http/fetch-handler.js';
import { listen, type AdminContext } from './http/server.js';
import { loadScenario, shippedScenarios } from './scenarios.js';

export type { ClockState } from './core/clock.js';
export type { JournalEntry } from './core/journal.js';
export type { CoreRequest, CoreResponse, KeyConfig, Limits, Pet, PetStatus, PlanName } from './core/types.js';
export { ERROR_CATALOGUE, type ErrorCode } from './core/errors.js';
export { openapiDocument } from './core/openapi.js';
export { PLAN_LIMITS } from './core/plans.js';
export { MockEngine } from './core/engine.js';

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

/** A running mock, as `startMock` returns it. */
export interface RunningMock {
  /** The API base URL, e.g. http://127.0.0.1:4010/v1. */
  url: string;
  /** The server's origin, e.g. http://127.0.0.1:4010. */
  origin: string;
  port: number;
  /** The API keys the mock accepts. */
  keys: KeyConfig[];
  /** The default session's clock. */
  clock: MockClock;
  /** Restores the default session's store, counters, bans, clock and journal. */
  reset(): void;
  /** Switches the default session to a scenario (name or file). */
  useScenario(nameOrFile: string): void;
  /** The default session's request journal, oldest first. */
  requests(): JournalEntry[];
  /** The core, for in-process use. */
  engine: MockEngine;
  close(): Promise<void>;
}

/** Resolves options into the settings every session starts with. Throws readable errors. */
export function resolveSettings(options: MockOptions): WorldSettings {
  let pets: readonly Pet[] | undefined;
  if (typeof options.fixtures === 'string') {
    let text: string;
    try {
      text = readFileSync(options.fixtures, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : code ?? String(error);
      throw new FixtureError(`petstore-mock: cannot read the fixtures file ${options.fixtures} (${why}); check the path given to --fixtures.`);
    }
    pets = parseFixtures(text, options.fixtures);
  } else if (options.fixtures) {
    pets = options.fixtures;
  }
  const keys = (options.keys ?? []).map((k) => (typeof k === 'string' ? parseKeySpec(k) : k));
  const base = buildBaseData({ seed: options.seed, count: options.pets, pets });
  const defaults = defaultSettings(base, keys);
  return options.scenario ? loadScenario(options.scenario).apply(defaults) : defaults;
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

/** The engine and what both front ends (server and fetch handler) build around it. */
interface Core {
  engine: MockEngine;
  settings: WorldSettings;
  admin: AdminContext;
  world: () => World;
}

function createCore(options: MockOptions): Core {
  const settings = resolveSettings(options);
  const engine = new MockEngine({ settings, now: options.now, onRequest: options.onRequest });
  const defaults = (): WorldSettings => defaultSettings(settings.base, resolvedKeys(options));
  const admin: AdminContext = {
    listScenarios: () => shippedScenarios().map(({ name, description }) => ({ name, description })),
    useScenario: (name, session) => {
      const world = engine.sessions.resolve(session);
      world.apply(loadScenario(name).apply(defaults()));
    },
    keys: () => engine.sessions.defaultWorld.settings.keys.map((k) => k.key),
  };
  return { engine, settings, admin, world: () => engine.sessions.defaultWorld };
}

/**
 * Starts a mock server for tests: `const mock = await startMock(); … await mock.close()`.
 * It listens on 127.0.0.1 and a free port unless told otherwise.
 */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const { engine, settings, admin, world } = createCore(options);
  const running = await listen(engine, { port: options.port ?? 0, host: options.host ?? '127.0.0.1', adminToken: options.adminToken, admin });
  return {
    url: `${running.origin}/v1`,
    origin: running.origin,
    port: Number(new URL(running.origin).port),
    keys: [...settings.keys],
    clock: clockOf(world),
    reset: () => world().reset(),
    useScenario: (name) => admin.useScenario(name, undefined),
    requests: () => world().journal.list(),
    engine,
    close: () => running.close(),
  };
}

/** Options of `createFetchHandler`: those of `startMock` without the networking ones. */
export interface FetchHandlerOptions extends Omit<MockOptions, 'port' | 'host' | 'adminToken'> {
  /** The client address requests without a key are counted under (127.0.0.1 by default). */
  clientAddress?: string;
}

/** A standard Fetch handler backed by the mock's core, with the test controls of `RunningMock`. */
export interface MockFetchHandler {
  (request: Request): Promise<Response>;
  /** The API keys the mock accepts. */
  keys: KeyConfig[];
  /** The default session's clock. */
  clock: MockClock;
  /** Restores the default session's store, counters, bans, clock and journal. */
  reset(): void;
  /** Switches the default session to a scenario (name or file). */
  useScenario(nameOrFile: string): void;
  /** The default session's request journal, oldest first. */
  requests(): JournalEntry[];
  /** The core. */
  engine: MockEngine;
}

/**
 * Returns `(request: Request) => Promise<Response>` answering the API in-process, with no port:
 * for MSW handlers, service workers or direct calls. Any origin works; paths start with `/v1`.
 */
export function createFetchHandler(options: FetchHandlerOptions = {}): MockFetchHandler {
  const { engine, settings, admin, world } = createCore(options);
  const address = options.clientAddress ?? '127.0.0.1';
  const handler = (request: Request): Promise<Response> => answerFetch(engine, request, address);
  return Object.assign(handler, {
    keys: [...settings.keys],
    clock: clockOf(world),
    reset: () => world().reset(),
    useScenario: (name: string) => admin.useScenario(name, undefined),
    requests: () => world().journal.list(),
    engine,
  });
}

function resolvedKeys(options: MockOptions): KeyConfig[] {
  return (options.keys ?? []).map((k) => (typeof k === 'string' ? parseKeySpec(k) : k));
}
