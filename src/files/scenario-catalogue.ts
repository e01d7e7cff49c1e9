import { dirname } from 'node:path';
import { ScenarioError, isScenarioName } from '../core/scenarios/scenario-compiler.js';
import type { SessionSettings } from '../core/state/session-state.js';
import type { LiveDefaults } from './defaults-data.js';
import { MAX_FIXTURES_FILE_BYTES, readUserFile } from './read-file.js';
import { ScenarioSource, loadScenario, scenariosDir, shippedScenarios, unknownScenario, type ScenarioDefaults } from './scenario-files.js';

interface Listed {
  name: string;
  description: string;
}

/** A scenario compiled for this server, with what it was compiled from. */
interface Compiled {
  settings: SessionSettings;
  defaultsVersion: number;
  /** The text of each of its files (a loaded scenario file and its fixtures) when it was read. */
  inputs: Map<string, string | undefined>;
}

/** A watched file's text to tell a change by (a scenario file or a fixtures file); undefined when it cannot be read. */
function readText(file: string): string | undefined {
  try {
    return readUserFile(file, MAX_FIXTURES_FILE_BYTES);
  } catch {
    return undefined;
  }
}

/**
 * The scenarios a server can switch to: the shipped ones, and the files it has loaded (from
 * `--scenario FILE` or the library), by name. A name's settings are compiled once and reused
 * while its files (and the `--fixtures` file) read the same; a changed file is read again the
 * next time the name is asked for (a switch, a reset, a reload under --watch), and a file with
 * a mistake throws and leaves the last good version in place. Editing or deleting a file never
 * breaks the listing the admin page polls.
 */
export class ScenarioCatalogue {
  private readonly files = new Map<string, Listed & { file: string }>();
  private readonly compiled = new Map<string, Compiled>();
  /** The last text --watch saw of each file, to tell a change from a touch. */
  private readonly seen = new Map<string, string | undefined>();
  private shipped: Listed[] | undefined;

  constructor(private readonly defaults: LiveDefaults) {
    if (defaults.file !== undefined) this.seen.set(defaults.file, readText(defaults.file));
  }

  /** The settings of the command line, before any scenario. */
  startSettings(): SessionSettings {
    return this.defaults.settings;
  }

  /** The settings of a shipped scenario, a loaded one by name, or a file by path, read now. */
  settings(nameOrFile: string): SessionSettings {
    if (isScenarioName(nameOrFile)) return this.latest(nameOrFile);
    this.defaults.refresh();
    return this.compile(loadScenario(nameOrFile));
  }

  /** Over HTTP only names are taken: the admin API does not read paths it is sent. */
  settingsByName(name: string): SessionSettings {
    this.checkName(name);
    return this.settings(name);
  }

  /** The settings of a scenario read now, and the source they came from (a shared state stores its text). */
  load(nameOrFile: string): { settings: SessionSettings; source: ScenarioSource } {
    this.defaults.refresh();
    const source = loadScenario(this.files.get(nameOrFile)?.file ?? nameOrFile, [...this.files.keys()]);
    return { settings: this.compile(source), source };
  }

  /** `load` for a name sent over HTTP. */
  loadByName(name: string): { settings: SessionSettings; source: ScenarioSource } {
    this.checkName(name);
    return this.load(name);
  }

  /** A name sent over HTTP: one of the listed scenarios, or a mistake that offers only those. */
  private checkName(name: string): void {
    if (!isScenarioName(name)) {
      throw new ScenarioError(
        `the admin API switches scenarios by name, not ${JSON.stringify(name)}; load a file with --scenario FILE or the library's useScenario(FILE), then switch to it by its name.`,
      );
    }
    const names = this.list().map((s) => s.name);
    if (!names.includes(name)) {
      throw new ScenarioError(`${unknownScenario(name, names)}; the admin API switches to one of ${names.join(', ')} (GET /__admin/scenarios lists them).`);
    }
  }

  /** The settings of a scenario another instance loaded, from its text. */
  fromText(text: string, file: string): SessionSettings {
    return ScenarioSource.parse(text, file).settings(this.defaults);
  }

  /** The defaults the settings are made for. */
  get hostData(): ScenarioDefaults {
    return this.defaults;
  }

  /**
   * The current version of a scenario by name: the same settings object while nothing it was
   * read from changed, new settings once something did. Throws `ScenarioError` or
   * `FixtureError` (a `UserError`) for a file with a mistake, keeping the last good version.
   */
  latest(name: string): SessionSettings {
    this.defaults.refresh();
    const loaded = this.files.get(name);
    // The default scenario is the command line's settings as they are (shipped default.yaml adds nothing).
    if (!loaded && name === 'default') return this.defaults.settings;
    const cached = this.compiled.get(name);
    const unchanged =
      cached !== undefined && cached.defaultsVersion === this.defaults.version && [...cached.inputs].every(([file, text]) => readText(file) === text);
    if (cached && unchanged) return cached.settings;
    return this.compile(loadScenario(loaded?.file ?? name, [...this.files.keys()]));
  }

  private compile(source: ScenarioSource): SessionSettings {
    // Read before compiling, so a save during the compile shows as a change next time.
    // Shipped scenarios do not change while a server runs; only the person's own files are re-read.
    const userFile = dirname(source.file) !== scenariosDir();
    const inputs = new Map<string, string | undefined>(userFile ? source.inputFiles().map((file) => [file, readText(file)]) : []);
    const settings = source.settings(this.defaults);
    if (userFile) {
      // A file loaded once can be switched back to by its name, also over HTTP.
      this.files.set(source.name, { name: source.name, description: source.description, file: source.file });
      for (const [file, text] of inputs) if (!this.seen.has(file)) this.seen.set(file, text);
    }
    this.compiled.set(source.name, { settings, defaultsVersion: this.defaults.version, inputs });
    return settings;
  }

  /** The files a scenario was read from: its own and its fixtures, and the --fixtures file every scenario starts from. */
  filesOf(name: string): string[] {
    return [...(this.defaults.file === undefined ? [] : [this.defaults.file]), ...(this.compiled.get(name)?.inputs.keys() ?? [])];
  }

  /** Every file whose change --watch reloads: the fixtures file, loaded scenario files and their fixtures. */
  watchedFiles(): string[] {
    const files = new Set<string>(this.defaults.file === undefined ? [] : [this.defaults.file]);
    for (const { inputs } of this.compiled.values()) for (const file of inputs.keys()) files.add(file);
    return [...files];
  }

  /** The watched files whose text changed since the last call (or since they were first read). */
  changedFiles(): string[] {
    const changed: string[] = [];
    for (const file of this.watchedFiles()) {
      const text = readText(file);
      if (this.seen.get(file) !== text) changed.push(file);
      this.seen.set(file, text);
    }
    return changed;
  }

  list(): Listed[] {
    this.shipped ??= shippedScenarios().map(({ name, description }) => ({ name, description }));
    const loaded = [...this.files.values()].map(({ name, description }) => ({ name, description }));
    return [...this.shipped.filter((s) => !this.files.has(s.name)), ...loaded];
  }
}
