/**
 * petstore-mock in the browser: `createFetchHandler` answers the API in the page or behind MSW's
 * `setupWorker`, with no server. Scenarios are given as objects; nothing here reads a disk or
 * imports a Node built-in.
 */
import { installPlatform } from '../core/platform.js';
import { browserPlatform } from './platform.js';
import type { MockEngine } from '../core/pipeline/engine.js';
import { createDefaults, type DefaultsInput } from '../core/scenarios/defaults.js';
import { ScenarioError } from '../core/scenarios/scenario-compiler.js';
import type { JournalEntry } from '../core/state/journal.js';
import type { SessionSettings } from '../core/state/session-state.js';
import type { SessionHandle } from '../controls.js';
import { assemble, memoryHome, type FetchFront, type MockHandle } from '../assembly.js';
import { checkCommonOptions, checkOptionNames } from '../mock-options.js';
import { answerFetch } from '../http/fetch-handler.js';
import { compileScenarioObject, shippedScenarioObjects, type ScenarioObject } from './scenarios.js';

installPlatform(browserPlatform);

/** Options of the browser's `createFetchHandler`. */
export interface BrowserMockOptions extends DefaultsInput {
  /** Scenarios the handler can switch to by name (`useScenario('checkout-outage')`), besides the shipped ones. */
  scenarios?: readonly ScenarioObject[];
  /** The scenario to start in: a shipped name, one of `scenarios` by name, or an object. */
  scenario?: string | ScenarioObject;
  /** The client address requests without a key are counted under (127.0.0.1 by default). */
  clientAddress?: string;
  /** Called once per answered API request. */
  onRequest?: (entry: JournalEntry) => void;
  /** The real time source the virtual clocks run on (Date.now by default). */
  now?: () => number;
}

/** Every name `BrowserMockOptions` has: another is refused, naming these. One missing here fails to compile. */
const OPTION_NAMES = {
  seed: true,
  pets: true,
  fixtures: true,
  keys: true,
  profile: true,
  scenarios: true,
  scenario: true,
  clientAddress: true,
  onRequest: true,
  now: true,
} as const satisfies Record<keyof BrowserMockOptions, true>;

/** One session's controls in the browser: `useScenario` also takes a scenario object. */
export interface BrowserSessionHandle extends Omit<SessionHandle, 'useScenario' | 'snapshot' | 'restore'> {
  /** Switches the session to a scenario (a name of `scenarios`, or an object) and starts it afresh; throws `ScenarioError`. */
  useScenario(scenario: string | ScenarioObject): void;
}

/** The browser's Fetch handler, with the test controls of the default session. */
export type BrowserFetchHandler = MockHandle<
  false,
  FetchFront & {
    /** The names of the scenarios `useScenario` knows: the shipped ones and those given. */
    scenarios(): string[];
    /** The core. */
    engine: MockEngine;
  },
  BrowserSessionHandle
>;

/**
 * Returns `(request: Request) => Promise<Response>` answering the API in the browser: for MSW's
 * `setupWorker` (`http.all('https://api.example.test/*', ({ request }) => petstore(request))`),
 * a service worker, or direct calls. Any origin works; paths start with `/v1`.
 */
export function createFetchHandler(options: BrowserMockOptions = {}): BrowserFetchHandler {
  checkOptionNames(options, OPTION_NAMES, 'createFetchHandler', `its options are ${Object.keys(OPTION_NAMES).join(', ')} (docs/browser.md)`);
  const defaults = createDefaults({ ...options, keys: checkCommonOptions(options) });
  // The shipped scenarios are compiled when first used; given objects at once, so a mistake shows early.
  const shipped = new Map(shippedScenarioObjects().map((object) => [object.name, object]));
  const known = new Map<string, SessionSettings>([['default', defaults.settings]]);
  const remember = (object: ScenarioObject): SessionSettings => {
    const settings = compileScenarioObject(object, defaults);
    known.set(object.name, settings);
    return settings;
  };
  for (const object of options.scenarios ?? []) remember(object);
  const names = (): string[] => [...new Set(['default', ...shipped.keys(), ...known.keys()])];
  const settingsOf = (scenario: string | ScenarioObject): SessionSettings => {
    if (typeof scenario !== 'string') return remember(scenario);
    const object = shipped.get(scenario);
    const settings = known.get(scenario) ?? (object && remember(object));
    if (!settings)
      throw new ScenarioError(
        `unknown scenario ${JSON.stringify(scenario)}; the browser build knows ${names().join(', ')}. Give scenario objects in the scenarios option, or pass the object itself.`,
      );
    return settings;
  };
  const settings = options.scenario === undefined ? defaults.settings : settingsOf(options.scenario);
  const home = memoryHome({
    settings,
    scenarios: { list: () => names().map((name) => ({ name, description: '' })), settingsByName: settingsOf },
    now: options.now,
    onRequest: options.onRequest,
  });
  const { engine } = home;
  const address = options.clientAddress ?? '127.0.0.1';
  const handler = (request: Request): Promise<Response> => answerFetch(engine, request, address);
  return assemble(home, settings.keys, Object.assign(handler, { scenarios: names, engine }), {
    // useScenario also takes a scenario object here.
    session: (handle, id): BrowserSessionHandle => ({
      ...handle,
      useScenario: (scenario) => engine.sessions.resolve(id).apply(settingsOf(scenario)),
    }),
  });
}

export { ScenarioError } from '../core/scenarios/scenario-compiler.js';
export { ERROR_CATALOGUE, type ErrorCode } from '../core/errors.js';
export type { ScenarioObject } from './scenarios.js';
export type { MockClock, RequestsQuery } from '../controls.js';
export type { MockHandle } from '../assembly.js';
export type { JournalFilter, VerifyCount } from '../core/state/journal-query.js';
export type { JournalDetails, JournalMessage } from '../core/state/journal-details.js';
export type { JournalEntry } from '../core/state/journal.js';
export type { SessionSummary } from '../core/state/sessions.js';
export type { ClockState } from '../core/state/clock.js';
export type { KeyConfig, Limits, Pet, PetStatus, PlanName } from '../core/types.js';
export { auditJournal, AUDIT_RULES } from '../core/audit/audit.js';
export type { AuditedKey, AuditFinding, AuditOptions, AuditReport, AuditRule, AuditSeverity, WellBehavedOptions } from '../core/audit/audit.js';
