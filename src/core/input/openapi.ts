/**
 * The OpenAPI 3.1 document of the Animal Store API as this mock serves it. It is the single
 * source of the schemas the mock validates requests with, and of the page-size bounds; tests
 * validate every response they receive against it. `petstore-mock` answers every status listed.
 */

const json = 'application/json';
const errorContent = { [json]: { schema: { $ref: '#/components/schemas/Error' } } };
const rateHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};
const deprecationHeaders = {
  Deprecation: { $ref: '#/components/headers/Deprecation' },
  Sunset: { $ref: '#/components/headers/Sunset' },
  Link: { $ref: '#/components/headers/Link' },
};

function errorResponse(description: string, extraHeaders: Record<string, unknown> = {}) {
  return { description, headers: { ...rateHeaders, ...extraHeaders }, content: errorContent };
}

/** Answers every operation can give, whatever it does. */
const commonErrors = {
  '401': errorResponse('The API key is missing or invalid.', {
    'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' },
  }),
  '414': errorResponse('The request target is longer than 8 KiB.'),
  '429': errorResponse('The rate limit is exceeded, or the key is temporarily banned.', {
    'Retry-After': { $ref: '#/components/headers/Retry-After' },
  }),
  '431': errorResponse('The request headers are too large.'),
  '500': errorResponse('An internal error (or one forced by a scenario).'),
  '502': errorResponse('A bad gateway (forced by a scenario).'),
  '503': errorResponse('The service is unavailable: forced by a scenario (`service_unavailable`), or the shared state of a replicated mock cannot be reached (`state_unavailable`, with Retry-After and without rate-limit headers).', {
    'Retry-After': { $ref: '#/components/headers/Retry-After' },
  }),
  '504': errorResponse('A gateway timeout (forced by a scenario).'),
};

export const openapiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Animal Store API',
    version: '1.0.0',
    description:
      'An adoption store interface for browsing and managing individual animals, as served by petstore-mock.',
  },
  servers: [{ url: '/v1', description: 'This mock (the production and staging base addresses both end in /v1).' }],
  security: [{ bearerAuth: [] }],
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        summary: 'List animals',
        description: 'Returns animals in ascending id order, filtered by status, then cut to `limit`.',
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'Maximum number of animals to return.',
            schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 100, default: 20 },
          },
          {
            name: 'status',
            in: 'query',
            required: false,
            description: 'Keeps only animals with this status.',
            schema: { $ref: '#/components/schemas/PetStatus' },
          },
        ],
        responses: {
          '200': {
            description: 'A JSON array of animals.',
            headers: rateHeaders,
            content: { [json]: { schema: { $ref: '#/components/schemas/Pets' } } },
          },
          '400': errorResponse('A query parameter is invalid.'),
          ...commonErrors,
        },
      },
      post: {
        operationId: 'createPet',
        summary: 'Add an animal',
        requestBody: {
          required: true,
          content: { [json]: { schema: { $ref: '#/components/schemas/NewPet' } } },
        },
        responses: {
          '201': {
            description: 'The animal was added.',
            headers: { ...rateHeaders, Location: { $ref: '#/components/headers/Location' } },
            content: { [json]: { schema: { $ref: '#/components/schemas/Pet' } } },
          },
          '400': errorResponse('The body lacks required fields or holds invalid values.'),
          '413': errorResponse('The body is larger than 1 MiB.'),
          '415': errorResponse('The body is not application/json.'),
          ...commonErrors,
        },
      },
    },
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        summary: 'Fetch one animal (deprecated)',
        description:
          'Deprecated; removed on 5 December 2030. Use `GET /pets` with the `status` filter instead.',
        deprecated: true,
        parameters: [
          {
            name: 'petId',
            in: 'path',
            required: true,
            description: 'Identifier of the animal to fetch.',
            schema: { type: 'integer', format: 'int64' },
          },
        ],
        responses: {
          '200': {
            description: 'The animal.',
            headers: { ...rateHeaders, ...deprecationHeaders },
            content: { [json]: { schema: { $ref: '#/components/schemas/Pet' } } },
          },
          '400': errorResponse('The petId is not an int64 integer.', deprecationHeaders),
          '404': errorResponse('The animal does not exist.', deprecationHeaders),
          '410': errorResponse('The operation was removed on 5 December 2030.', deprecationHeaders),
          ...commonErrors,
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
    headers: {
      'X-RateLimit-Limit': { description: 'Requests allowed in the reported window.', schema: { type: 'integer' } },
      'X-RateLimit-Remaining': { description: 'Requests left in the reported window.', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'Unix time (whole seconds) when the reported window resets.', schema: { type: 'integer' } },
      'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
      'WWW-Authenticate': { description: 'The bearer challenge.', schema: { type: 'string' } },
      Location: { description: 'The URL of the created animal.', schema: { type: 'string' } },
      Deprecation: { description: 'When the operation was deprecated (RFC 9745).', schema: { type: 'string' } },
      Sunset: { description: 'When the operation is removed (RFC 8594).', schema: { type: 'string' } },
      Link: { description: 'The successor operation.', schema: { type: 'string' } },
    },
  },
} as const;

export type OpenApiDocument = typeof openapiDocument;

/** The page-size bounds of `GET /pets`, read from the document so the two cannot drift. */
export const LIMIT_BOUNDS = openapiDocument.paths['/pets'].get.parameters[0].schema;
/** The allowed animal statuses, from `PetStatus`. */
export const PET_STATUSES = openapiDocument.components.schemas.PetStatus.enum;
