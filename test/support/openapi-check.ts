import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { openapiDocument } from '../../src/core/input/openapi.js';
import { openApiAjv } from '../../src/core/input/openapi-ajv.js';

const ajv = openApiAjv(Ajv2020);

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }> }>> };
const doc = openapiDocument as unknown as Doc;
const cache = new Map<string, ValidateFunction>();

/** The document path template a concrete API path belongs to. */
function templateOf(path: string): string | undefined {
  if (path === '/v1/pets') return '/pets';
  if (/^\/v1\/pets\/[^/]+$/.test(path)) return '/pets/{petId}';
  return undefined;
}

/**
 * Asserts that a response of `method path` is one the OpenAPI document declares: the status is
 * listed for the operation, the body validates against its schema, and every declared rate-limit
 * header is present. Returns a description of the problem, or undefined when it conforms.
 */
export function responseProblem(method: string, path: string, status: number, headers: Headers, bodyText: string): string | undefined {
  const template = templateOf(path);
  if (!template) return undefined;
  const operations = doc.paths[template];
  const verb = method === 'HEAD' ? 'get' : method.toLowerCase();
  // Own keys only: a method named "constructor" must not find Object's.
  const operation = operations && Object.hasOwn(operations, verb) ? operations[verb] : undefined;
  if (!operation) return undefined;
  const declared = operation.responses[String(status)];
  if (!declared) return `${method} ${path}: status ${status} is not declared in the OpenAPI document`;
  for (const name of Object.keys(declared.headers ?? {})) {
    if (name.startsWith('X-RateLimit') && !headers.has(name)) return `${method} ${path} ${status}: header ${name} missing`;
  }
  if (method === 'HEAD' || status === 204) return undefined;
  const id = `${template} ${method} ${status}`;
  let validate = cache.get(id);
  if (!validate) {
    const pointer = `openapi.json#/paths/${template.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    const found = ajv.getSchema(pointer);
    if (!found) return `${method} ${path} ${status}: no schema at ${pointer}`;
    validate = found;
    cache.set(id, validate);
  }
  if (headers.get('content-type') !== 'application/json') return `${method} ${path} ${status}: content-type ${headers.get('content-type')}`;
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return `${method} ${path} ${status}: body is not JSON: ${bodyText.slice(0, 100)}`;
  }
  if (!validate(body)) return `${method} ${path} ${status}: body breaks the schema: ${ajv.errorsText(validate.errors)}`;
  if (status >= 400) {
    const err = body as { status: number };
    if (err.status !== status) return `${method} ${path}: Error.status ${err.status} differs from HTTP status ${status}`;
  }
  return undefined;
}
