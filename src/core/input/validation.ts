import { MockError, type ErrorDetail } from '../errors.js';
import { NonInteger, type JsonValue } from './json.js';
import { LIMIT_BOUNDS, PET_STATUSES } from './openapi.js';
import { openApiValidators } from './openapi-validators.js';
import { pathOf, type SchemaError } from './schema-check.js';
import type { PetStatus } from '../types.js';

/** Where a value breaks a schema of the document: a path into the value and a sentence, first mistake first. */
export function schemaProblems(schemaName: 'Pet' | 'Pets', value: unknown): { path: (string | number)[]; message: string }[] {
  const validate = schemaName === 'Pet' ? openApiValidators().pet : openApiValidators().pets;
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => {
    const path = pathOf(error.instancePath);
    if (error.keyword === 'additionalProperties') path.push(String(error.params.additionalProperty));
    const where = path.length === 0 ? 'the body' : path.join('.');
    if (error.keyword === 'required') return { path, message: `${where} needs the field ${JSON.stringify(error.params.missingProperty)}` };
    const message = error.keyword === 'additionalProperties' ? 'is not a field of Pet' : messageOf(error);
    return { path, message: `${where} ${message}` };
  });
}

/** The most fields a validation error names. */
export const MAX_DETAILS = 20;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A validated `NewPet` body. */
export interface NewPetInput {
  name: string;
  categoryId: number | bigint;
  status?: PetStatus;
}

/** Validates a parsed body against `NewPet`; throws `invalid_body` naming each offending field. */
export function validateNewPet(value: JsonValue, hasBigInt: boolean): NewPetInput {
  const { newPet } = openApiValidators();
  const view = hasBigInt ? withApproximateNumbers(value) : value;
  if (!newPet(view)) {
    // A body of 60,000 unknown fields must not earn an answer eight times its size: name the first few.
    const all = toDetails(newPet.errors ?? []);
    const details = all.slice(0, MAX_DETAILS);
    throw new MockError('invalid_body', describeIssues(details, all.length - details.length), { details });
  }
  const body = value as { [key: string]: JsonValue };
  const categoryId = body.categoryId as number | bigint;
  if (typeof categoryId === 'bigint' && (categoryId < INT64_MIN || categoryId > INT64_MAX)) {
    const details = [{ field: 'categoryId', message: 'must be an integer within int64 (-2^63 to 2^63-1)' }];
    throw new MockError('invalid_body', 'The body is invalid: categoryId must be an integer within int64.', { details });
  }
  const input: NewPetInput = { name: body.name as string, categoryId };
  if (body.status !== undefined) input.status = body.status as PetStatus;
  return input;
}

/** What Ajv can read: bigints as their nearest double, and NaN (never an integer) for a NonInteger. */
function withApproximateNumbers(value: JsonValue): JsonValue {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof NonInteger) return Number.NaN;
  if (Array.isArray(value)) return value.map(withApproximateNumbers);
  if (value !== null && typeof value === 'object') {
    const copy: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) copy[k] = withApproximateNumbers(v);
    return copy;
  }
  return value;
}

function fieldOf(error: SchemaError): string {
  const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required') return base ? `${base}.${String(error.params.missingProperty)}` : String(error.params.missingProperty);
  if (error.keyword === 'additionalProperties') {
    const name = String(error.params.additionalProperty);
    const extra = name.length > 40 ? `${name.slice(0, 40)}…` : name;
    return base ? `${base}.${extra}` : extra;
  }
  return base || '(body)';
}

function messageOf(error: SchemaError): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a field of NewPet';
    case 'enum':
      return `must be one of ${PET_STATUSES.join(', ')}`;
    case 'type':
      return `must be ${error.params.type === 'object' ? 'a JSON object' : `of type ${String(error.params.type)}`}`;
    case 'format':
      return `must be an integer within ${String(error.params.format)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** One detail per field: a wrong type says it all, so it wins over what follows from it. */
function toDetails(errors: readonly SchemaError[]): ErrorDetail[] {
  const chosen = new Map<string, SchemaError>();
  for (const error of errors) {
    const field = fieldOf(error);
    const previous = chosen.get(field);
    if (!previous || (error.keyword === 'type' && previous.keyword !== 'type')) chosen.set(field, error);
  }
  return [...chosen].map(([field, error]) => ({ field, message: messageOf(error) }));
}

function describeIssues(details: readonly ErrorDetail[], more: number): string {
  const parts = details.map((d) => (d.field === '(body)' ? `the body ${d.message}` : `${d.field} ${d.message}`));
  if (more > 0) parts.push(`and ${more} more field${more === 1 ? '' : 's'}`);
  return `The body is invalid: ${parts.join('; ')}. Send {"name": string, "categoryId": integer, "status"?: ${PET_STATUSES.join('|')}}.`;
}

/** The query of `GET /pets`, validated. */
export interface ListQuery {
  limit: number;
  status?: PetStatus;
}

const DIGITS = /^\d{1,4}$/;

const parsedQueries = new Map<string, Readonly<ListQuery>>();
const MAX_PARSED_QUERIES = 256;

/**
 * Reads `limit` and `status` from a raw query string: `limit` must be decimal digits within the
 * document's bounds, `status` one of the enum (case-sensitive); a repeated parameter is refused;
 * unknown parameters are ignored. Clients repeat the same few queries, so valid ones are remembered.
 */
export function parseListQuery(rawQuery: string): Readonly<ListQuery> {
  let parsed = parsedQueries.get(rawQuery);
  if (parsed === undefined) {
    parsed = Object.freeze(readListQuery(rawQuery));
    if (parsedQueries.size >= MAX_PARSED_QUERIES) parsedQueries.clear();
    parsedQueries.set(rawQuery, parsed);
  }
  return parsed;
}

function readListQuery(rawQuery: string): ListQuery {
  const result: ListQuery = { limit: LIMIT_BOUNDS.default };
  if (rawQuery === '') return result;
  const seen = new Set<string>();
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const name = decodeComponent(rawName, 'a query parameter name');
    // limit[]=5 and status[0]=sold are how form encoders write arrays; ignoring them would hide the mistake.
    if (/^(limit|status)\[[^\]]*\]$/.test(name)) throw queryError(name.slice(0, name.indexOf('[')), 'must be one value, not an array');
    if (name !== 'limit' && name !== 'status') continue;
    const value = decodeComponent(eq === -1 ? '' : pair.slice(eq + 1), name);
    if (seen.has(name)) throw queryError(name, 'must be given at most once');
    seen.add(name);
    if (name === 'limit') {
      if (!DIGITS.test(value) || Number(value) < LIMIT_BOUNDS.minimum || Number(value) > LIMIT_BOUNDS.maximum) {
        throw queryError(
          'limit',
          `must be a whole number from ${LIMIT_BOUNDS.minimum} to ${LIMIT_BOUNDS.maximum} written in decimal digits (default ${LIMIT_BOUNDS.default})`,
        );
      }
      result.limit = Number(value);
    } else {
      if (!(PET_STATUSES as readonly string[]).includes(value)) throw queryError('status', `must be one of ${PET_STATUSES.join(', ')} (lower case)`);
      result.status = value as PetStatus;
    }
  }
  return result;
}

function decodeComponent(raw: string, what: string): string {
  // Most queries are plain (limit=20): nothing to decode.
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw queryError(what, 'has malformed percent-encoding');
  }
}

function queryError(field: string, message: string): MockError {
  return new MockError('invalid_query', `The query parameter ${field} ${message}.`, { details: [{ field, message }] });
}

/** Parses a `petId` path segment: decimal digits (an optional minus) within int64. */
export function parsePetId(segment: string): number | bigint {
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    throw petIdError(segment);
  }
  if (!/^-?\d{1,19}$/.test(text)) throw petIdError(text);
  const exact = BigInt(text);
  if (exact < INT64_MIN || exact > INT64_MAX) throw petIdError(text);
  return Number.isSafeInteger(Number(text)) ? Number(text) : exact;
}

function petIdError(text: string): MockError {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return new MockError(
    'invalid_path_parameter',
    `The petId ${JSON.stringify(shown)} is not an int64 integer; use the numeric id of an animal from GET /v1/pets.`,
    {
      details: [{ field: 'petId', message: 'must be an integer within int64' }],
    },
  );
}
