import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scenarioSchemaErrors } from '../core/scenarios/schema-documents.js';
import { pickError } from '../core/scenarios/schema-errors.js';
import type { ScenarioDefaults } from '../core/scenarios/defaults.js';
import type { Document, LineCounter } from 'yaml';
import { FixtureError, parseFixtures, readFailure } from '../core/input/fixtures.js';
import { ScenarioError, ScenarioSpecError, compileScenario, isScenarioName, type DataSpec, type ScenarioSpec } from '../core/scenarios/scenario-compiler.js';
import type { BaseData } from '../core/state/base-data.js';
import type { SessionSettings } from '../core/state/session-state.js';
import { MAX_FIXTURES_FILE_BYTES, MAX_SCENARIO_FILE_BYTES, readUserFile } from './read-file.js';
import { nearestName } from '../core/near-name.js';
import { readProfileJson } from './profile-file.js';
import { displayPath } from './display-path.js';

export type { ScenarioDefaults };

type Path = readonly (string | number)[];

const SCENARIO_FILE = /\.(ya?ml|json)$/i;
const SCHEMA_FILE = 'scenario.schema.json';

/** The folder of shipped scenarios: found upwards from this module, so it works from src/ and dist/. */
export function scenariosDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'scenarios');
    if (existsSync(join(candidate, SCHEMA_FILE))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new ScenarioError('the shipped scenarios folder is missing; reinstall petstore-mock.');
    dir = parent;
  }
}

// The YAML parser costs ~40 ms to import: it is required on the first scenario file,
// synchronously, so that switching scenarios stays a plain call and start-up without one pays nothing.
let yamlModule: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') =>
  (yamlModule ??= process.getBuiltinModule('node:module').createRequire(import.meta.url)('yaml') as typeof import('yaml'));

/**
 * A scenario file, parsed and checked against the schema. It keeps the parsed document so that
 * mistakes found later, when it is applied to a server, still name the line they are on.
 */
export class ScenarioSource {
  private constructor(
    readonly name: string,
    readonly description: string,
    readonly file: string,
    private readonly spec: ScenarioSpec,
    private readonly doc: Document,
    private readonly lines: LineCounter,
    /** The file's text, which a shared state hands to instances on other hosts. */
    readonly text = '',
  ) {}

  /** Reads and checks a file; throws `ScenarioError` naming the file, the line and the mistake. */
  static read(file: string): ScenarioSource {
    let text: string;
    try {
      text = readUserFile(file, MAX_SCENARIO_FILE_BYTES);
    } catch (error) {
      throw new ScenarioError(`cannot read the scenario file ${displayPath(file)} (${readFailure(error)}); check the path given to --scenario.`);
    }
    return ScenarioSource.parse(text, file);
  }

  /** Parses and checks a scenario's text as if read from `file` (fixtures resolve next to it). */
  static parse(text: string, file: string): ScenarioSource {
    const { LineCounter, parseDocument } = yaml();
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
    const syntax = doc.errors[0];
    if (syntax) {
      const at = syntax.linePos?.[0];
      const [firstLine = ''] = syntax.message.split('\n');
      const what = firstLine.replace(/ at line \d+, column \d+:?$/, '');
      throw new ScenarioError(`${displayPath(file)}:${at?.line ?? 1}:${at?.col ?? 1}: ${what}; fix the file and try again.`);
    }
    const value = toValue(file, doc, lines);
    const source = new ScenarioSource('', '', file, value as ScenarioSpec, doc, lines);
    const problem = pickError(scenarioSchemaErrors(value));
    if (problem) throw source.error(problem.path, problem.message);
    const spec = value as ScenarioSpec;
    const name = spec.name ?? basename(file, extname(file));
    if (!isScenarioName(name)) {
      const suggestion =
        name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-+|-+$/g, '')
          .slice(0, 64) || 'my-scenario';
      throw source.error(
        [],
        `the file name ${JSON.stringify(name)} is no scenario name (lower-case letters, digits and -, as the admin API switches by it); add "name: ${suggestion}" or rename the file`,
      );
    }
    return new ScenarioSource(name, spec.description, file, spec, doc, lines, text);
  }

  /** The files this scenario is read from: itself, and the fixtures its data names. */
  inputFiles(): string[] {
    const fixtures = this.spec.data?.fixtures;
    const profile = typeof this.spec.profile === 'string' ? [resolve(dirname(this.file), this.spec.profile)] : [];
    return [this.file, ...(fixtures === undefined ? [] : [resolve(dirname(this.file), fixtures)]), ...profile];
  }

  /** The settings this scenario gives a session of `defaults`. */
  settings(defaults: ScenarioDefaults): SessionSettings {
    try {
      return compileScenario(this.spec, this.name, {
        defaults: defaults.settings,
        data: (data) => this.baseData(data, defaults),
        profile: (path) => this.profileJson(path),
      });
    } catch (error) {
      if (error instanceof ScenarioSpecError) throw this.error(error.path, error.message);
      if (error instanceof ScenarioError) throw error;
      // Not a mistake the compiler knows of: still named with its file, and marked as the mock's own.
      throw this.error([], `petstore-mock could not apply it (${(error as Error)?.message ?? String(error)}; please report this)`);
    }
  }

  /** A `profile:` file, relative to this file. */
  private profileJson(path: string): unknown {
    try {
      return readProfileJson(resolve(dirname(this.file), path));
    } catch (error) {
      throw new ScenarioSpecError(['profile'], (error as Error).message.replace(/\.$/, ''));
    }
  }

  private baseData(data: DataSpec, defaults: ScenarioDefaults): BaseData {
    if (data.empty) {
      if (data.count !== undefined || data.fixtures !== undefined)
        throw new ScenarioSpecError(['data', 'empty'], 'data.empty cannot go with count or fixtures; keep one of them');
      return defaults.baseFor({ pets: [] });
    }
    if (data.fixtures === undefined) return defaults.baseFor({ seed: data.seed, count: data.count });
    if (data.seed !== undefined || data.count !== undefined)
      throw new ScenarioSpecError(['data', 'fixtures'], 'data.fixtures cannot go with seed or count; keep one of them');
    const fixtures = resolve(dirname(this.file), data.fixtures);
    try {
      return defaults.baseFor({ pets: parseFixtures(readUserFile(fixtures, MAX_FIXTURES_FILE_BYTES), displayPath(fixtures)) });
    } catch (error) {
      const reason = error instanceof FixtureError ? error.reason : `cannot read ${displayPath(fixtures)} (${readFailure(error)})`;
      throw new ScenarioSpecError(['data', 'fixtures'], reason);
    }
  }

  /** A mistake at `path`, with the file, line and column of the node it is about. */
  private error(path: Path, message: string): ScenarioError {
    const { line, col } = this.position(path);
    return new ScenarioError(`${displayPath(this.file)}:${line}:${col}: ${message}; fix the file and try again.`);
  }

  private position(path: Path): { line: number; col: number } {
    const { isMap, isNode, isScalar } = yaml();
    // A key that should not be there is shown at its name, not at its value.
    const parent: unknown = path.length <= 1 ? this.doc.contents : this.doc.getIn(path.slice(0, -1), true);
    if (isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === path[path.length - 1]);
      const range = isScalar(pair?.key) ? pair.key.range : undefined;
      if (range) return this.lines.linePos(range[0]);
    }
    for (let depth = path.length; depth >= 0; depth--) {
      const node: unknown = depth === 0 ? this.doc.contents : this.doc.getIn(path.slice(0, depth), true);
      const range = isNode(node) ? node.range : undefined;
      if (range) return this.lines.linePos(range[0]);
    }
    return { line: 1, col: 1 };
  }
}

/**
 * The document's value. Aliases (`*name`) are where a YAML file can go wrong after it parsed: one
 * may name no anchor, and a few lines of aliases of aliases expand to billions of values (an
 * "alias bomb"); the YAML library refuses both with a bare ReferenceError, which becomes a
 * ScenarioError at the alias's line here.
 */
function toValue(file: string, doc: Document, lines: LineCounter): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    const { isAlias, visit } = yaml();
    let first: { line: number; col: number } | undefined;
    let unresolved: { line: number; col: number; name: string } | undefined;
    visit(doc, {
      Alias(_key, node) {
        const at = node.range ? lines.linePos(node.range[0]) : { line: 1, col: 1 };
        first ??= at;
        if (isAlias(node) && node.resolve(doc) === undefined) {
          unresolved = { ...at, name: node.source };
          return visit.BREAK;
        }
        return undefined;
      },
    });
    if (unresolved) {
      throw new ScenarioError(
        `${displayPath(file)}:${unresolved.line}:${unresolved.col}: the alias *${unresolved.name} names no anchor (&${unresolved.name}) defined before it; fix the file and try again.`,
      );
    }
    const at = first ?? { line: 1, col: 1 };
    const why = /alias count/i.test((error as Error).message)
      ? 'its aliases (*name) expand to too many values (an alias bomb?); write the values out, or use each anchor a few times only'
      : `its value cannot be read (${(error as Error).message})`;
    throw new ScenarioError(`${displayPath(file)}:${at.line}:${at.col}: ${why}; fix the file and try again.`);
  }
}

/** The shipped scenarios, `default` first, then by name. */
export function shippedScenarios(): ScenarioSource[] {
  const dir = scenariosDir();
  // The schemas beside the scenarios (scenario.schema.json, snapshot.schema.json) are no scenarios.
  const files = readdirSync(dir).filter((f) => SCENARIO_FILE.test(f) && !f.endsWith('.schema.json'));
  const sources = files.map((f) => ScenarioSource.read(join(dir, f)));
  return sources.sort((a, b) => (a.name === 'default' ? -1 : b.name === 'default' ? 1 : a.name.localeCompare(b.name)));
}

/**
 * A shipped scenario by name, or a scenario file by path (.yaml, .yml or .json). `loaded` names
 * the files a server has loaded, listed with the shipped names when a name is unknown.
 */
export function loadScenario(nameOrFile: string, loaded: readonly string[] = []): ScenarioSource {
  const dir = scenariosDir();
  if (isScenarioName(nameOrFile)) {
    for (const ext of ['.yaml', '.yml', '.json']) {
      const file = join(dir, `${nameOrFile}${ext}`);
      if (existsSync(file)) return ScenarioSource.read(file);
    }
  }
  if (SCENARIO_FILE.test(nameOrFile) || nameOrFile.includes('/') || nameOrFile.includes('\\')) return ScenarioSource.read(resolve(nameOrFile));
  const names = [...new Set([...shippedScenarios().map((s) => s.name), ...loaded])];
  throw new ScenarioError(
    `${unknownScenario(nameOrFile, names)}; use one of ${names.join(', ')}, or a path to a .yaml or .json scenario file (petstore-mock scenarios lists them).`,
  );
}

/** The start of the message for a scenario name nothing answers to, with a "did you mean". */
export function unknownScenario(name: string, names: readonly string[]): string {
  const near = nearestName(name, names);
  return `unknown scenario ${JSON.stringify(name)}${near ? ` (did you mean ${near}?)` : ''}`;
}
