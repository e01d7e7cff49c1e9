import { ScenarioError, isScenarioName } from '../core/scenarios/scenario-compiler.js';
import type { WorldSettings } from '../core/state/world.js';
import { ScenarioSource, loadScenario, shippedScenarios, type ScenarioHost } from './scenario-files.js';

interface Listed {
  name: string;
  description: string;
}

/**
 * The scenarios a server can switch to: the shipped ones, and the files it has loaded (from
 * `--scenario FILE` or the library), by name. A file is read again only when switched to, so
 * editing or deleting it during a run never breaks the listing the admin page polls.
 */
export class ScenarioCatalogue {
  private readonly files = new Map<string, Listed & { file: string }>();
  private shipped: Listed[] | undefined;

  constructor(private readonly host: ScenarioHost) {}

  /** The settings of the command line, before any scenario. */
  startSettings(): WorldSettings {
    return this.host.defaults;
  }

  /** The settings of a shipped scenario, a loaded one by name, or a file by path. */
  settings(nameOrFile: string): WorldSettings {
    return this.load(nameOrFile).settings;
  }

  /** The settings of a scenario and the source they came from (a shared state stores its text). */
  load(nameOrFile: string): { settings: WorldSettings; source: ScenarioSource } {
    const source = loadScenario(this.files.get(nameOrFile)?.file ?? nameOrFile);
    const settings = source.settings(this.host);
    // A file loaded once can be switched back to by its name, also over HTTP.
    if (!isScenarioName(nameOrFile)) this.files.set(source.name, { name: source.name, description: source.description, file: source.file });
    return { settings, source };
  }

  /** The settings of a scenario another instance loaded, from its text. */
  fromText(text: string, file: string): WorldSettings {
    return ScenarioSource.parse(text, file).settings(this.host);
  }

  /** The host the settings are made for. */
  get hostData(): ScenarioHost {
    return this.host;
  }

  /** Over HTTP only names are taken: the admin API does not read paths it is sent. */
  settingsByName(name: string): WorldSettings {
    return this.loadByName(name).settings;
  }

  /** `load` for a name sent over HTTP. */
  loadByName(name: string): { settings: WorldSettings; source: ScenarioSource } {
    if (!isScenarioName(name)) {
      throw new ScenarioError(`petstore-mock: the admin API switches scenarios by name, not ${JSON.stringify(name)}; load a file with --scenario FILE or the library's useScenario(FILE), then switch to it by its name.`);
    }
    return this.load(name);
  }

  list(): Listed[] {
    this.shipped ??= shippedScenarios().map(({ name, description }) => ({ name, description }));
    const loaded = [...this.files.values()].map(({ name, description }) => ({ name, description }));
    return [...this.shipped.filter((s) => !this.files.has(s.name)), ...loaded];
  }
}
