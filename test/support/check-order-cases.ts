import { post } from './mock.js';
import { undeclaredMethod } from './undeclared.js';

const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024), categoryId: 1 });

/**
 * The documented order of checks as cases (what, path, request, status, code), run both over HTTP
 * and on the engine without a socket. The key `tiny` is a Free key of 1 request a minute.
 */
export const CHECK_ORDER_CASES = [
  ['an unknown path beats a missing key', '/v1/nope', { key: null }, 404, 'route_not_found'],
  ['a wrong method beats a missing key', '/v1/pets/1', { method: undeclaredMethod('/v1/pets/1'), key: null }, 405, 'method_not_allowed'],
  ['store orders beat a missing key', '/v1/store/orders', { key: null }, 501, 'not_implemented'],
  ['a wrong-case path is unknown', '/V1/PETS', {}, 404, 'route_not_found'],
  ['a trailing slash is unknown', '/v1/pets/', {}, 404, 'route_not_found'],
  ['a missing key beats validation', '/v1/pets?limit=0', { key: null }, 401, 'missing_api_key'],
  ['a missing key beats the media type', '/v1/pets', { ...post('x', { 'content-type': 'text/plain' }), key: null }, 401, 'missing_api_key'],
  ['the media type beats the size', '/v1/pets', post(big, { 'content-type': 'text/plain' }), 415, 'unsupported_media_type'],
  ['the size beats validation', '/v1/pets', post(big.replace('"name"', '"nome"')), 413, 'payload_too_large'],
  ['an invalid petId is a 400 after auth', '/v1/pets/abc', {}, 400, 'invalid_path_parameter'],
] as const;
