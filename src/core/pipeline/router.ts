import type { OperationId } from '../state/session-state.js';

/** Where a request lands before any other check. */
export type Route =
  | { kind: 'operation'; operation: OperationId; allow: string; petId?: string }
  | { kind: 'document'; allow: string }
  | { kind: 'options'; allow: string }
  | { kind: 'method-not-allowed'; allow: string }
  | { kind: 'not-implemented' }
  | { kind: 'not-found' };

const PETS_ALLOW = 'GET, HEAD, POST, OPTIONS';
const PET_ALLOW = 'GET, HEAD, OPTIONS';
const DOC_ALLOW = 'GET, HEAD, OPTIONS';

// Routes without a path parameter are the same every time; nobody mutates a route.
const LIST_PETS: Route = { kind: 'operation', operation: 'listPets', allow: PETS_ALLOW };
const CREATE_PET: Route = { kind: 'operation', operation: 'createPet', allow: PETS_ALLOW };

/** The methods a path answers, for preflights and `Allow`; undefined for unknown paths. */
export function allowedMethods(path: string): string | undefined {
  if (path === '/v1/pets') return PETS_ALLOW;
  if (path === '/v1/openapi.json') return DOC_ALLOW;
  if (petIdSegment(path) !== undefined) return PET_ALLOW;
  return undefined;
}

function petIdSegment(path: string): string | undefined {
  if (!path.startsWith('/v1/pets/')) return undefined;
  const segment = path.slice('/v1/pets/'.length);
  return segment !== '' && !segment.includes('/') ? segment : undefined;
}

/**
 * Routes strictly and case-sensitively: `/V1/PETS` and `/v1/pets/` are not the API. Paths are
 * matched still encoded, so `%2F` inside an id never becomes a path separator.
 */
export function route(method: string, path: string): Route {
  const verb = method === 'HEAD' ? 'GET' : method;
  if (path === '/v1/pets') {
    if (verb === 'GET') return LIST_PETS;
    if (verb === 'POST') return CREATE_PET;
    return method === 'OPTIONS' ? { kind: 'options', allow: PETS_ALLOW } : { kind: 'method-not-allowed', allow: PETS_ALLOW };
  }
  const petId = petIdSegment(path);
  if (petId !== undefined) {
    if (verb === 'GET') return { kind: 'operation', operation: 'getPet', allow: PET_ALLOW, petId };
    return method === 'OPTIONS' ? { kind: 'options', allow: PET_ALLOW } : { kind: 'method-not-allowed', allow: PET_ALLOW };
  }
  if (path === '/v1/openapi.json') {
    if (verb === 'GET') return { kind: 'document', allow: DOC_ALLOW };
    return method === 'OPTIONS' ? { kind: 'options', allow: DOC_ALLOW } : { kind: 'method-not-allowed', allow: DOC_ALLOW };
  }
  if (path === '/v1/store' || path.startsWith('/v1/store/')) return { kind: 'not-implemented' };
  return { kind: 'not-found' };
}
