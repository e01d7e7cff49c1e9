import { describe, expect, it } from 'vitest';
import { MockError } from '../../src/core/errors.js';
import { parseJsonText } from '../../src/core/input/json.js';
import { parseListQuery, parsePetId, validateNewPet } from '../../src/core/input/validation.js';

function newPet(text: string) {
  const { value, hasBigInt } = parseJsonText(text);
  return validateNewPet(value, hasBigInt);
}

function errorOf(fn: () => unknown): MockError {
  try {
    fn();
  } catch (error) {
    if (error instanceof MockError) return error;
    throw error;
  }
  throw new Error('expected a MockError');
}

describe('validateNewPet (compiled from the OpenAPI NewPet schema)', () => {
  it.each([
    ['{"name":"Rex","categoryId":3}', { name: 'Rex', categoryId: 3 }],
    ['{"name":"Rex","categoryId":3,"status":"sold"}', { name: 'Rex', categoryId: 3, status: 'sold' }],
    ['{"name":"","categoryId":-4}', { name: '', categoryId: -4 }],
    ['{"name":"Big","categoryId":9223372036854775807}', { name: 'Big', categoryId: 9223372036854775807n }],
    ['{"name":"Small","categoryId":-9223372036854775808}', { name: 'Small', categoryId: -9223372036854775808n }],
    ['{"name":"F","categoryId":3.0}', { name: 'F', categoryId: 3 }],
  ])('accepts %s', (text, expected) => {
    expect(newPet(text)).toEqual(expected);
  });

  it.each([
    ['{"categoryId":3}', [{ field: 'name', message: 'is required' }]],
    ['{"name":"Rex"}', [{ field: 'categoryId', message: 'is required' }]],
    [
      '{}',
      [
        { field: 'name', message: 'is required' },
        { field: 'categoryId', message: 'is required' },
      ],
    ],
    ['{"name":5,"categoryId":3}', [{ field: 'name', message: 'must be of type string' }]],
    ['{"name":"Rex","categoryId":"3"}', [{ field: 'categoryId', message: 'must be of type integer' }]],
    ['{"name":"Rex","categoryId":1.5}', [{ field: 'categoryId', message: 'must be of type integer' }]],
    ['{"name":"Rex","categoryId":3,"status":"Sold"}', [{ field: 'status', message: 'must be one of available, pending, sold' }]],
    ['{"name":"Rex","categoryId":3,"id":7}', [{ field: 'id', message: 'is not a field of NewPet' }]],
    ['{"name":"Rex","categoryId":9223372036854775808}', [{ field: 'categoryId', message: 'must be an integer within int64 (-2^63 to 2^63-1)' }]],
    ['{"name":"Rex","categoryId":-9223372036854775809}', [{ field: 'categoryId', message: 'must be an integer within int64 (-2^63 to 2^63-1)' }]],
    ['[]', [{ field: '(body)', message: 'must be a JSON object' }]],
    ['null', [{ field: '(body)', message: 'must be a JSON object' }]],
    ['"Rex"', [{ field: '(body)', message: 'must be a JSON object' }]],
    ['42', [{ field: '(body)', message: 'must be a JSON object' }]],
  ])('refuses %s with details %j', (text, details) => {
    const error = errorOf(() => newPet(text));
    expect(error.code).toBe('invalid_body');
    expect(error.status).toBe(400);
    expect(error.details).toEqual(details);
  });
});

describe('parseListQuery', () => {
  it.each([
    ['', { limit: 20 }],
    ['limit=1', { limit: 1 }],
    ['limit=100', { limit: 100 }],
    ['limit=007', { limit: 7 }],
    ['status=pending', { limit: 20, status: 'pending' }],
    ['limit=5&status=sold&other=1&other=2', { limit: 5, status: 'sold' }],
    ['api_key=x', { limit: 20 }],
    ['%6Cimit=3', { limit: 3 }],
  ])('reads %j', (query, expected) => {
    expect(parseListQuery(query)).toEqual(expected);
  });

  it.each([
    'limit=',
    'limit',
    'limit=0',
    'limit=101',
    'limit=-1',
    'limit=1.5',
    'limit=1e2',
    'limit=0x10',
    'limit=+7',
    'limit=%205',
    'limit=Infinity',
    'limit=1e400',
    'limit=5&limit=5',
    'status=Sold',
    'status=',
    'status=available&status=sold',
    'limit=%ZZ',
    'status=lost',
  ])('refuses %j with invalid_query', (query) => {
    const error = errorOf(() => parseListQuery(query));
    expect(error.code).toBe('invalid_query');
    expect(error.details?.[0]?.field).toMatch(/^(limit|status)$/);
  });
});

describe('parsePetId', () => {
  it.each([
    ['1', 1],
    ['%31', 1],
    ['9007199254740991', 9007199254740991],
    ['9223372036854775807', 9223372036854775807n],
    ['-3', -3],
  ])('reads %j', (segment, expected) => {
    expect(parsePetId(segment)).toBe(expected);
  });

  it.each(['abc', '1.5', '1e3', '9223372036854775808', '', '..', '%00', '%2F', '1%2F2', '%E0%A4%A', ' 1', '0x1'])('refuses %j', (segment) => {
    expect(errorOf(() => parsePetId(segment)).code).toBe('invalid_path_parameter');
  });
});
