// The one table of the API's operations: the specification's, read from the OpenAPI document, and
// those a session's scenario declares. Requests are routed in it (`route`); scenario matching,
// the audit and the scenario checks read the specification's part instead of repeating paths.
import { openapiDocument } from '../input/openapi.js';
import { templateKey, type DeclaredOperation } from '../scenarios/declared-operations.js';
import type { OperationId } from '../types.js';

/** Where a request lands before any other check. */
export type Route =
  | { kind: 'operation'; operation: OperationId; allow: string; petId?: string }
  | { kind: 'declared'; operation: DeclaredOperation; allow: string }
  | { kind: 'document'; allow: string }
  | { kind: 'options'; allow: string }
  | { kind: 'method-not-allowed'; allow: string }
  | { kind: 'not-implemented' }
  | { kind: 'not-found' };

/** One operation of the table. */
export interface TableOperation {
  /** The operationId: the specification's, or the one the scenario gave. */
  id: string;
  method: string;
  /** The path template as requests see it: `/v1/pets/{petId}`. */
  path: string;
  /** What a scenario declared; absent for the specification's operations. */
  declared?: DeclaredOperation;
}

/** An operation of the specification. */
export interface SpecOperation extends TableOperation {
  id: OperationId;
  declared?: undefined;
  /** Marked `deprecated: true` in the document: its answers announce the session's removal date, then 410. */
  deprecated: boolean;
}

/** Where the served document lives; it is the mock's own route, not an operation. */
export const DOCUMENT_PATH = '/v1/openapi.json';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type DocumentOperation = { operationId: string; deprecated?: boolean };

/** Where the document's paths are served: under its first server. */
export const API_BASE = openapiDocument.servers[0]?.url ?? '/v1';

/** The operations of an OpenAPI document of the API, in its order, with their paths under its first server. */
export function specOperationsOf(document: { servers: readonly { url: string }[]; paths: object }): SpecOperation[] {
  const base = document.servers[0]?.url ?? '/v1';
  const paths = document.paths as Record<string, Partial<Record<(typeof METHODS)[number], DocumentOperation>>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.flatMap((m) => {
      const op = item[m];
      return op ? [{ id: op.operationId as OperationId, method: m.toUpperCase(), path: `${base}${path}`, deprecated: op.deprecated === true }] : [];
    }),
  );
}

/** The specification's operations, in the document's order. */
export const SPEC_OPERATIONS: readonly SpecOperation[] = specOperationsOf(openapiDocument);

/** The specification's operation of an id. */
export function specOperation(id: OperationId): SpecOperation {
  const op = SPEC_OPERATIONS.find((o) => o.id === id);
  if (op === undefined) throw new Error(`unreachable: the OpenAPI document has no operation ${id}`);
  return op;
}

/** A template's segments: literal text, or null for a `{name}` parameter. */
type Segments = readonly (string | null)[];

function segmentsOf(path: string): Segments {
  return path
    .slice(1)
    .split('/')
    .map((s) => (s.startsWith('{') ? null : s));
}

/** Whether a request path (still encoded) fits a template; builds no strings. */
function fits(segments: Segments, path: string): boolean {
  let at = 0;
  for (const segment of segments) {
    if (path.charCodeAt(at) !== 47) return false;
    at++;
    const slash = path.indexOf('/', at);
    const end = slash === -1 ? path.length : slash;
    if (segment === null) {
      if (end === at) return false;
    } else if (end - at !== segment.length || !path.startsWith(segment, at)) return false;
    at = end;
  }
  return at === path.length;
}

/** The text of segment `index` of a path that fits its template, cut out without splitting the path. */
function segmentAt(path: string, index: number): string {
  let at = 1;
  for (let i = 0; i < index; i++) at = path.indexOf('/', at) + 1;
  const end = path.indexOf('/', at);
  return end === -1 ? path.slice(at) : path.slice(at, end);
}

/** How one method at one path answers: a route made once, or the specification's with its path parameter. */
interface Target {
  route?: Route;
  id: OperationId;
  param: number;
}

interface PathEntry {
  allow: string;
  /** A few methods at most: a scan of this list beats a map's hashing. */
  methods: string[];
  targets: Target[];
  options: Route;
  notAllowed: Route;
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const NOT_FOUND: Route = { kind: 'not-found' };
const NOT_IMPLEMENTED: Route = { kind: 'not-implemented' };

function allowOf(methods: Iterable<string>): string {
  const set = new Set(methods);
  if (set.has('GET')) set.add('HEAD');
  return [...ORDER.filter((m) => set.has(m)), 'OPTIONS'].join(', ');
}

/** The operations a session answers and how a request finds one. Routes are made once and never mutated. */
export class OperationsTable {
  private readonly exact = new Map<string, PathEntry>();
  private readonly templated: { segments: Segments; entry: PathEntry }[] = [];
  /** The first exact path (the list's, the hot path), compared before the map is asked. */
  private readonly firstPath: string;
  private readonly firstEntry: PathEntry | undefined;

  constructor(readonly operations: readonly TableOperation[]) {
    const groups = new Map<string, TableOperation[]>();
    for (const op of operations) {
      const key = templateKey(op.path);
      groups.set(key, [...(groups.get(key) ?? []), op]);
    }
    const templates = [...groups].filter(([key]) => key.includes('{}'));
    for (const [key, ops] of groups) {
      if (key.includes('{}')) continue;
      // A template that also fits this path answers its other methods here.
      const more = templates.filter(([t]) => fits(segmentsOf(t), key)).flatMap(([, o]) => o.filter((x) => !ops.some((y) => y.method === x.method)));
      this.exact.set(key, this.entryOf([...ops, ...more], key));
    }
    for (const [key, ops] of templates) this.templated.push({ segments: segmentsOf(key), entry: this.entryOf(ops) });
    const docAllow = allowOf(['GET']);
    this.exact.set(DOCUMENT_PATH, {
      allow: docAllow,
      methods: ['GET'],
      targets: [{ route: { kind: 'document', allow: docAllow }, id: 'listPets', param: -1 }],
      options: { kind: 'options', allow: docAllow },
      notAllowed: { kind: 'method-not-allowed', allow: docAllow },
    });
    this.firstPath = this.exact.keys().next().value ?? DOCUMENT_PATH;
    this.firstEntry = this.exact.get(this.firstPath);
  }

  /** `concrete`: the path the entry is for when it has no parameters, so a spec template's parameter is known now. */
  private entryOf(ops: readonly TableOperation[], concrete?: string): PathEntry {
    const allow = allowOf(ops.map((o) => o.method));
    const methods: string[] = [];
    const targets: Target[] = [];
    for (const op of ops) {
      const param = segmentsOf(op.path).indexOf(null);
      const id = op.id as OperationId;
      let route: Route | undefined;
      if (op.declared) route = { kind: 'declared', operation: op.declared, allow };
      else if (param === -1) route = { kind: 'operation', operation: id, allow };
      else if (concrete !== undefined) route = { kind: 'operation', operation: id, allow, petId: segmentAt(concrete, param) };
      methods.push(op.method);
      targets.push({ route, id, param });
    }
    return { allow, methods, targets, options: { kind: 'options', allow }, notAllowed: { kind: 'method-not-allowed', allow } };
  }

  private entryAt(path: string): PathEntry | undefined {
    if (path === this.firstPath) return this.firstEntry;
    const entry = this.exact.get(path);
    if (entry !== undefined) return entry;
    for (const t of this.templated) if (fits(t.segments, path)) return t.entry;
    return undefined;
  }

  /**
   * Routes strictly and case-sensitively: `/V1/PETS` and `/v1/pets/` are not the API. Paths are
   * matched still encoded, so `%2F` inside an id never becomes a path separator.
   */
  route(method: string, path: string): Route {
    const entry = this.entryAt(path);
    if (entry === undefined) return path === '/v1/store' || path.startsWith('/v1/store/') ? NOT_IMPLEMENTED : NOT_FOUND;
    const verb = method === 'HEAD' ? 'GET' : method;
    const { methods } = entry;
    let i = 0;
    while (i < methods.length && methods[i] !== verb) i++;
    const target = entry.targets[i];
    if (target !== undefined) return target.route ?? { kind: 'operation', operation: target.id, allow: entry.allow, petId: segmentAt(path, target.param) };
    return method === 'OPTIONS' ? entry.options : entry.notAllowed;
  }

  /** The methods a path answers, for preflights and `Allow`; undefined for unknown paths. */
  allowed(path: string): string | undefined {
    return this.entryAt(path)?.allow;
  }

  /**
   * What already answers `method` at a path template, in words, or undefined: the same template
   * (parameter names aside), a template that fits a concrete path, or the document's path.
   */
  owner(method: string, path: string): string | undefined {
    if (path === DOCUMENT_PATH) return 'the path of the served OpenAPI document';
    const key = templateKey(path);
    const verb = method === 'HEAD' ? 'GET' : method;
    for (const op of this.operations) {
      if (op.method !== verb) continue;
      if (templateKey(op.path) === key || (!key.includes('{}') && fits(segmentsOf(op.path), path))) {
        return `${op.declared ? 'declared' : 'defined by the specification'} as ${op.id} (${op.method} ${op.path})`;
      }
    }
    return undefined;
  }
}

/** The table of the specification alone: what a session without declared operations answers. */
export const SPEC_TABLE = new OperationsTable(SPEC_OPERATIONS);

/** What a session's declared operations make, once per settings; `spec` for settings that declare none. */
export function perDeclared<T>(spec: T, make: (declared: readonly DeclaredOperation[]) => T): (settings: { operations?: readonly DeclaredOperation[] }) => T {
  const made = new WeakMap<object, T>();
  return (settings) => {
    const declared = settings.operations;
    if (declared === undefined || declared.length === 0) return spec;
    let value = made.get(settings);
    if (value === undefined) made.set(settings, (value = make(declared)));
    return value;
  };
}

/** The table of a session's settings: the specification's when nothing is declared. */
export const tableOf = perDeclared(
  SPEC_TABLE,
  (declared) => new OperationsTable([...SPEC_OPERATIONS, ...declared.map((d) => ({ id: d.operationId, method: d.method, path: d.path, declared: d }))]),
);
