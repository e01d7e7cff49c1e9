import './node-platform.js';
import type { MockEngine } from './core/pipeline/engine.js';
import { assemble, memoryHome, type FetchFront, type MemoryHome, type MockHandle, type Served } from './assembly.js';
import { answerFetch } from './http/fetch-handler.js';
import { serve } from './serve.js';
import { memoryAdmin, type ScenarioLookup } from './core/state/backend.js';
import { sharedFetchHandler, startShared, type SharedFetchHandler, type SharedRunningMock } from './shared-mock.js';
import { LIBRARY_OPTION_NAMES, type FetchHandlerOptions, type MockOptions, type SharedFetchOptions, type SharedMockOptions } from './library-options.js';
import { prepareDefaults } from './files/defaults-data.js';
import { ScenarioCatalogue } from './files/scenario-catalogue.js';
import { reloadSessions, watchFiles, type ReloadReport } from './files/live-reload.js';
import { checkOptionNames, checkOptions } from './mock-options.js';
import { nearestName } from './core/near-name.js';
import { checkSnapshotSchema, scenarioFromObject } from './files/object-checks.js';
import { snapshotSupport } from './core/state/snapshot-support.js';
import { importFailure, readSnapshotFile } from './files/snapshot-file.js';
import { writeFileAtomically } from './files/atomic-file.js';
import { checkExportTarget } from './files/export-target.js';
import { displayPath } from './files/display-path.js';
import { Metrics, counted } from './metrics.js';
import type { SessionSettings } from './core/state/session-state.js';
import { UserError } from './core/errors.js';

export { clockOf, type MockClock, type SessionHandle } from './controls.js';
export type { MockHandle } from './assembly.js';

export type { FetchHandlerOptions, MockOptions, SharedFetchOptions, SharedMockOptions } from './library-options.js';

/** A running mock, as `startMock` returns it; its session methods act on the default session. */
export type RunningMock = MockHandle<
  false,
  Served & {
    /** The core, for in-process use. */
    engine: MockEngine;
    /**
     * Re-reads the files now, as `watch` does on a change; undefined when none changed. Sessions
     * of a changed scenario restart in its new version.
     */
    reload(): ReloadReport | undefined;
  }
>;

/** The in-memory home of a Node mock, and what its files add: a reload, and `stop` to end the watch. */
function nodeMemory(options: MockOptions & { clientAddress?: string }) {
  const keysGiven = checkOptions(options);
  const catalogue = new ScenarioCatalogue(prepareDefaults({ ...options, keys: keysGiven }));
  const settings = options.scenario ? catalogue.settings(options.scenario) : catalogue.startSettings();
  const metrics = new Metrics();
  let watching: ReturnType<typeof watchFiles> | undefined;
  // A reset or a switch reads the scenario's files as they are now, as a reload would.
  const scenarios: ScenarioLookup = {
    list: () => catalogue.list(),
    settingsByName: (name) => catalogue.settingsByName(name),
    settings: (nameOrFile): SessionSettings => {
      const found = catalogue.settings(nameOrFile);
      watching?.sync();
      return found;
    },
    latest: (name) => catalogue.latest(name),
    fromObject: (value) => scenarioFromObject(value, catalogue.hostData),
    snapshots: snapshotSupport(checkSnapshotSchema),
  };
  const home = memoryHome({ settings, scenarios, now: options.now, onRequest: counted(metrics, options.onRequest), maxSessions: options.maxSessions });
  const reload = (): ReloadReport | undefined => reloadSessions(catalogue, home.engine.sessions);
  if (options.watch) {
    watching = watchFiles(
      () => catalogue.watchedFiles(),
      () => {
        const report = reload();
        if (report) options.onReload?.(report);
      },
    );
  }
  if (options.import !== undefined) importInto(home, options.import);
  return { home, scenarios, keys: [...settings.keys], metrics, reload, stop: () => watching?.close() };
}

/** Restores the default session from `import` (a document or a file's path) before anything is served. */
function importInto(home: MemoryHome, source: string | object): void {
  const document = typeof source === 'string' ? readSnapshotFile(source) : source;
  try {
    home.ops.restore?.(undefined, document);
  } catch (error) {
    throw importFailure(error, typeof source === 'string' ? `the snapshot file ${displayPath(source)}` : 'the "import" option');
  }
}

/** Writes the default session's snapshot to `file` (whole or not at all), for `exportOnExit`. */
function exportTo(home: MemoryHome, file: string): void {
  const snapshot = home.ops.snapshot?.(undefined);
  if (!snapshot) return;
  try {
    writeFileAtomically(file, `${JSON.stringify(snapshot, null, 2)}\n`);
  } catch (error) {
    throw new UserError(`could not write the snapshot to ${displayPath(file)} (${(error as Error).message}); check the path given to --export-on-exit.`);
  }
}

/** Refuses an option name no Node entry knows, with the known name it is closest to, before anything starts. */
function checkNames(options: unknown, entry: string): void {
  checkOptionNames(options, LIBRARY_OPTION_NAMES, entry, 'the options are listed in docs/reference.md', nearestName);
}

/**
 * Starts a mock server for tests: `const mock = await startMock(); … await mock.close()`.
 * It listens on 127.0.0.1 and a free port unless told otherwise.
 */
export async function startMock(options: SharedMockOptions): Promise<SharedRunningMock>;
export async function startMock(options?: MockOptions): Promise<RunningMock>;
export async function startMock(options: MockOptions | SharedMockOptions = {}): Promise<RunningMock | SharedRunningMock> {
  checkNames(options, 'startMock');
  if ('state' in options && typeof options.state === 'string') return startShared(options);
  const exportOnExit = options.exportOnExit;
  if (typeof exportOnExit === 'string') checkExportTarget(exportOnExit);
  const { home, scenarios, keys, metrics, reload, stop } = nodeMemory(options);
  const served = await serve(
    {
      engine: home.engine,
      admin: memoryAdmin(home.engine.sessions, scenarios),
      metrics,
      // After the drain: the answers in flight are in the snapshot.
      drained: exportOnExit === undefined ? undefined : () => exportTo(home, exportOnExit),
      stop,
    },
    options,
  );
  const mock: RunningMock = assemble(home, keys, { ...served, engine: home.engine, reload }, { origin: () => served.origin });
  return mock;
}

/** A standard Fetch handler backed by the mock's core, with the test controls of `RunningMock`. */
export type MockFetchHandler = MockHandle<
  false,
  FetchFront & {
    /** The core. */
    engine: MockEngine;
  }
>;

/**
 * Returns `(request: Request) => Promise<Response>` answering the API in-process, with no port:
 * for MSW handlers, service workers or direct calls. Any origin works; paths start with `/v1`.
 */
export function createFetchHandler(options: SharedFetchOptions): SharedFetchHandler;
export function createFetchHandler(options?: FetchHandlerOptions): MockFetchHandler;
export function createFetchHandler(options: FetchHandlerOptions | SharedFetchOptions = {}): MockFetchHandler | SharedFetchHandler {
  // startMock's names too: the networking ones are ignored here, as ever, so one options object can serve both.
  checkNames(options, 'createFetchHandler');
  if ('state' in options && typeof options.state === 'string') return sharedFetchHandler(options);
  const { home, keys } = nodeMemory({ ...options, watch: false });
  const address = options.clientAddress ?? '127.0.0.1';
  const handler = (request: Request): Promise<Response> => answerFetch(home.engine, request, address);
  const mock: MockFetchHandler = assemble(home, keys, Object.assign(handler, { engine: home.engine }));
  return mock;
}
