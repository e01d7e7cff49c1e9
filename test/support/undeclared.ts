// What the OpenAPI document defines at a path, read from the document itself: the methods a test
// may use as "one the specification lacks", and the Allow header the mock owes a path. Tests that
// need such a method or header take it from here, so a new operation in the document breaks only
// the tests about it. Allow is worked out here on its own, as docs/reference.md describes it (the
// document's methods, HEAD with GET, OPTIONS always), not by the mock's code that sends it.
import { openapiDocument } from '../../src/core/input/openapi.js';

type Document = { servers: readonly { url: string }[]; paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
const document = openapiDocument as unknown as Document;

/** The methods a test reaches for first when it needs one a path does not define. */
const PREFERENCE = ['DELETE', 'PUT', 'PATCH'] as const;
/** The order of Allow and of Access-Control-Allow-Methods; OPTIONS comes last. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Whether a request path (or a template: a `{name}` segment fits any parameter) fits a template of the document. */
function fits(template: string, path: string): boolean {
  const want = template.split('/');
  const got = path.split('/');
  return want.length === got.length && want.every((segment, i) => (segment.startsWith('{') ? got[i] !== '' : segment === got[i]));
}

/** The methods the document defines at a request path or template, upper-case, in its order; throws when no path of it fits. */
export function documentMethods(path: string): string[] {
  const base = document.servers[0]?.url ?? '';
  const items = Object.entries(document.paths).filter(([template]) => fits(`${base}${template}`, path));
  if (items.length === 0) throw new Error(`no path of the OpenAPI document fits ${path}`);
  return [...new Set(items.flatMap(([, item]) => Object.keys(item).filter((key) => HTTP_METHODS.has(key))))].map((m) => m.toUpperCase());
}

/** The methods of `candidates` the document does not define at `path`, leaving out `taken` (those a scenario declares). */
export function undeclaredMethods(path: string, candidates: readonly string[] = PREFERENCE, ...taken: string[]): string[] {
  const defined = new Set([...documentMethods(path), ...taken]);
  return candidates.filter((m) => !defined.has(m));
}

/** A method the document does not define at `path`, DELETE first, then PUT, then PATCH, other than the `taken` ones. */
export function undeclaredMethod(path: string, ...taken: string[]): string {
  const method = undeclaredMethods(path, PREFERENCE, ...taken)[0];
  if (method === undefined) throw new Error(`the OpenAPI document defines all of ${PREFERENCE.join(', ')} at ${path}; add a method to PREFERENCE`);
  return method;
}

/** The Allow header (and Access-Control-Allow-Methods) of a path of the document, with the methods a scenario `declared` there. */
export function allowOf(path: string, ...declared: string[]): string {
  const methods = new Set([...documentMethods(path), ...declared]);
  if (methods.has('GET')) methods.add('HEAD');
  const unknown = [...methods].filter((m) => !ORDER.includes(m));
  if (unknown.length > 0) throw new Error(`no place in Allow for ${unknown.join(', ')}`);
  return [...ORDER.filter((m) => methods.has(m)), 'OPTIONS'].join(', ');
}

/** The success status the document gives a method at a path (HEAD: GET's); throws unless it gives exactly one. */
export function successStatus(method: string, path: string): number {
  const verb = (method === 'HEAD' ? 'GET' : method).toLowerCase();
  const base = document.servers[0]?.url ?? '';
  const operations = Object.entries(document.paths)
    .filter(([template, item]) => fits(`${base}${template}`, path) && item[verb] !== undefined)
    .map(([, item]) => item[verb]);
  const statuses = Object.keys(operations[0]?.responses ?? {}).filter((status) => /^2\d\d$/.test(status));
  if (operations.length !== 1 || statuses.length !== 1) throw new Error(`the OpenAPI document gives ${method} ${path} no single success status`);
  return Number(statuses[0]);
}
