/**
 * The OpenAPI 3.1 document of the Animal Store API as this mock serves it. It is the single
 * source of the schemas the mock validates requests with, and of the page-size bounds; tests
 * validate every response they receive against it. `petstore-mock` answers every status listed.
 */

import { ERROR_CATALOGUE, type ErrorCode } from '../errors.js';

const json = 'application/json';

/**
 * Header objects, written out in each answer rather than referenced: generators such as
 * openapi-typescript take every referenced header as required, and some of these are not.
 */
const header = (description: string, required: boolean, schema: Record<string, unknown>) => ({ description, required, schema });
const integer = { type: 'integer' };
const wait = { type: 'integer', minimum: 1 };
const text = { type: 'string' };
const H = {
  limit: header('Requests allowed in the reported window.', true, integer),
  remaining: header('Requests left in the reported window.', true, integer),
  reset: header('Unix time (whole seconds) when the reported window resets; on a 429, the Date header plus Retry-After.', true, integer),
  retryAfter: header('Whole seconds to wait before retrying: to the reset, or to the end of a ban. Retrying after it never counts toward a ban.', true, wait),
  retryAfterForced: header('Seconds to wait before retrying; sent when a scenario forced this answer with a retry delay.', false, wait),
  challenge: header('The bearer challenge.', true, text),
  location: header('The URL of the created animal.', true, text),
  deprecation: header('When the operation was deprecated (RFC 9745).', true, text),
  sunset: header('When the operation is removed (RFC 8594).', true, text),
  link: header('The successor operation.', true, text),
  deprecationMaybe: header('When the operation was deprecated (RFC 9745); absent when the answer came before the route was read.', false, text),
  sunsetMaybe: header('When the operation is removed (RFC 8594); absent when the answer came before the route was read.', false, text),
  linkMaybe: header('The successor operation; absent when the answer came before the route was read.', false, text),
};

/** Sent with every answer, errors included. */
const rateHeaders = { 'X-RateLimit-Limit': H.limit, 'X-RateLimit-Remaining': H.remaining, 'X-RateLimit-Reset': H.reset };
/** Sent with every answer of the deprecated getPet that reached the route. */
const deprecationHeaders = { Deprecation: H.deprecation, Sunset: H.sunset, Link: H.link };
/** Answers given before the route is known (414, 431) cannot tell getPet's apart: there, maybe. */
const maybeDeprecationHeaders = { Deprecation: H.deprecationMaybe, Sunset: H.sunsetMaybe, Link: H.linkMaybe };
/** A scenario may force this answer with a retry delay. */
const forcedRetry = { 'Retry-After': H.retryAfterForced };

/**
 * An Error answer with an example of its most usual code: mock servers that answer from the
 * document (Prism, say) then send a `status` equal to the HTTP status, as the specification asks.
 */
function errorResponse(code: ErrorCode, description: string, extraHeaders: Record<string, unknown> = {}) {
  const example = { code, message: ERROR_CATALOGUE[code].summary, status: ERROR_CATALOGUE[code].status };
  return { description, headers: { ...rateHeaders, ...extraHeaders }, content: { [json]: { schema: { $ref: '#/components/schemas/Error' }, example } } };
}

/**
 * The answers every operation can give, whatever it does; `routed` holds the headers of answers
 * given once the route is known, `unrouted` of those given before (414, 431).
 */
function commonErrors(routed: Record<string, unknown>, unrouted: Record<string, unknown>) {
  return {
    '401': errorResponse('missing_api_key', 'The API key is missing or invalid.', { ...routed, ...forcedRetry, 'WWW-Authenticate': H.challenge }),
    '408': errorResponse('request_timeout', 'The request did not arrive in full in time (petstore-mock: `request_timeout`).', unrouted),
    '414': errorResponse('uri_too_long', 'The request target is longer than 8 KiB.', unrouted),
    '429': errorResponse('rate_limited', 'The rate limit is exceeded, or the key is temporarily banned.', { ...routed, 'Retry-After': H.retryAfter }),
    '431': errorResponse('headers_too_large', 'The request headers are too large.', unrouted),
    '500': errorResponse('internal_error', 'An internal error (or one forced by a scenario).', { ...routed, ...forcedRetry }),
    '502': errorResponse('bad_gateway', 'A bad gateway (forced by a scenario).', { ...routed, ...forcedRetry }),
    '503': errorResponse(
      'service_unavailable',
      'The service is unavailable (forced by a scenario), holds its maximum of open connections (`too_many_connections`), or cannot reach the shared state of a replicated mock (`state_unavailable`, with Retry-After).',
      { ...routed, ...forcedRetry },
    ),
    '504': errorResponse('gateway_timeout', 'A gateway timeout (forced by a scenario).', { ...routed, ...forcedRetry }),
  };
}

export const openapiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Animal Store API',
    version: '1.0.0',
    description: 'An adoption store interface for browsing and managing individual animals, as served by petstore-mock.',
    contact: { name: 'petstore-mock, a local mock of this API' },
    license: { name: 'MIT', identifier: 'MIT' },
  },
  servers: [{ url: '/v1', description: 'This mock (the production and staging base addresses both end in /v1).' }],
  security: [{ bearerAuth: [] }],
  tags: [{ name: 'pets', description: 'Animals available for adoption.' }],
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        tags: ['pets'],
        summary: 'List animals',
        description: 'Returns animals in ascending id order, filtered by status, then cut to `limit`.',
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'Maximum number of animals to return.',
            schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 100, default: 20 },
            example: 5,
          },
          {
            name: 'status',
            in: 'query',
            required: false,
            description: 'Keeps only animals with this status.',
            schema: { $ref: '#/components/schemas/PetStatus' },
            example: 'available',
          },
        ],
        responses: {
          '200': {
            description: 'A JSON array of animals.',
            headers: rateHeaders,
            content: { [json]: { schema: { $ref: '#/components/schemas/Pets' } } },
          },
          '400': errorResponse('invalid_query', 'A query parameter is invalid.', forcedRetry),
          ...commonErrors({}, {}),
        },
      },
      post: {
        operationId: 'createPet',
        tags: ['pets'],
        summary: 'Add an animal',
        description: 'Adds a new animal; the service assigns its `id`. The body is a `NewPet` as `application/json`, at most 1 MiB.',
        requestBody: {
          required: true,
          content: { [json]: { schema: { $ref: '#/components/schemas/NewPet' }, example: { name: 'Rex', categoryId: 3, status: 'available' } } },
        },
        responses: {
          '201': {
            description: 'The animal was added.',
            headers: { ...rateHeaders, Location: H.location },
            content: { [json]: { schema: { $ref: '#/components/schemas/Pet' } } },
          },
          '400': errorResponse('invalid_body', 'The body lacks required fields or holds invalid values.', forcedRetry),
          '413': errorResponse('payload_too_large', 'The body is larger than 1 MiB.', forcedRetry),
          '415': errorResponse(
            'unsupported_media_type',
            'The body is not application/json, or its Content-Encoding is not one the mock can undo.',
            forcedRetry,
          ),
          '507': errorResponse(
            'store_full',
            "The session's store is full (petstore-mock: `store_full`): it holds the most animals or bytes a session, or all sessions together, may create. Resetting the session empties it.",
            forcedRetry,
          ),
          ...commonErrors({}, {}),
        },
      },
    },
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        tags: ['pets'],
        summary: 'Fetch one animal (deprecated)',
        description: 'Deprecated; removed on 5 December 2030. Use `GET /pets` with the `status` filter instead.',
        deprecated: true,
        parameters: [
          {
            name: 'petId',
            in: 'path',
            required: true,
            description: 'Identifier of the animal to fetch.',
            schema: { type: 'integer', format: 'int64' },
            // Contract testers (Dredd, Portman) call the operation with it: an id the seeded store always has.
            example: 1,
          },
        ],
        responses: {
          '200': {
            description: 'The animal.',
            headers: { ...rateHeaders, ...deprecationHeaders },
            content: { [json]: { schema: { $ref: '#/components/schemas/Pet' } } },
          },
          '400': errorResponse('invalid_path_parameter', 'The petId is not an int64 integer.', { ...deprecationHeaders, ...forcedRetry }),
          '404': errorResponse('pet_not_found', 'The animal does not exist.', { ...deprecationHeaders, ...forcedRetry }),
          '410': errorResponse('endpoint_removed', 'The operation was removed on 5 December 2030.', { ...deprecationHeaders, ...forcedRetry }),
          ...commonErrors(deprecationHeaders, maybeDeprecationHeaders),
        },
      },
    },
  },
  components: {
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'The API key, sent as `Authorization: Bearer <API_KEY>`.' },
    },
    schemas: {
      PetStatus: { type: 'string', enum: ['available', 'pending', 'sold'] },
      Pet: {
        type: 'object',
        required: ['id', 'name', 'categoryId'],
        properties: {
          id: { type: 'integer', format: 'int64', description: 'Assigned by the service on creation.' },
          name: { type: 'string' },
          categoryId: { type: 'integer', format: 'int64' },
          status: { $ref: '#/components/schemas/PetStatus' },
        },
        additionalProperties: false,
        examples: [{ id: 1, name: 'Ginger', categoryId: 2, status: 'available' }],
      },
      NewPet: {
        type: 'object',
        required: ['name', 'categoryId'],
        properties: {
          name: { type: 'string' },
          categoryId: { type: 'integer', format: 'int64' },
          status: { $ref: '#/components/schemas/PetStatus' },
        },
        additionalProperties: false,
        examples: [{ name: 'Rex', categoryId: 3, status: 'available' }],
      },
      Pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
      Error: {
        type: 'object',
        required: ['code', 'message', 'status'],
        properties: {
          code: { type: 'string' },
          message: { type: 'string' },
          status: { type: 'integer' },
          details: {
            type: 'array',
            items: {
              type: 'object',
              required: ['field', 'message'],
              properties: { field: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
      },
    },
  },
} as const;

/** The page-size bounds of `GET /pets`, read from the document so the two cannot drift. */
export const LIMIT_BOUNDS = openapiDocument.paths['/pets'].get.parameters[0].schema;
/** The allowed animal statuses, from `PetStatus`. */
export const PET_STATUSES = openapiDocument.components.schemas.PetStatus.enum;
