import { beforeEach, describe, expect, it } from 'vitest';
import { responseProblem } from '../support/openapi-check.js';
import { useMock } from '../support/mock.js';
import { rawRequest, type RawReply } from '../support/raw.js';
import { at } from '../support/checked.js';

const { mock, fresh } = useMock();
beforeEach(fresh);

const AUTH = 'Authorization: Bearer demo-free';
const INVALID = 'Bearer realm="petstore", error="invalid_token"';
const MISSING = 'Bearer realm="petstore"';

/** Sends a request byte for byte and checks the answer against the OpenAPI document too. */
async function send(method: string, target: string, headerLines: string[] = [AUTH], body = ''): Promise<RawReply> {
  const length = body ? [`Content-Length: ${Buffer.byteLength(body)}`] : [];
  const text = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${[...headerLines, ...length].map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n${body}`;
  const reply = await rawRequest(mock(), Buffer.from(text, 'latin1'));
  const path = at(target.split('?'), 0);
  expect(responseProblem(method, path, reply.status, new Headers(reply.headers), reply.body)).toBeUndefined();
  return reply;
}

type Case = [what: string, target: string, headers: string[], status: number, code: string | null];

const queries: Case[] = [
  ...['', '0', '101', '-1', '1.5', '1e2', '0x10', '+7', '%2B7', '%205', '5%20', 'Infinity', '1e400', 'NaN', '10000', '%EF%BC%91%EF%BC%90', 'abc'].map(
    (v): Case => [`limit=${v}`, `/v1/pets?limit=${v}`, [AUTH], 400, 'invalid_query'],
  ),
  ['limit without =', '/v1/pets?limit', [AUTH], 400, 'invalid_query'],
  ['limit repeated', '/v1/pets?limit=1&limit=2', [AUTH], 400, 'invalid_query'],
  ['limit repeated with the same value', '/v1/pets?limit=5&limit=5', [AUTH], 400, 'invalid_query'],
  ['limit as an array', '/v1/pets?limit[]=5', [AUTH], 400, 'invalid_query'],
  ['limit as an encoded array', '/v1/pets?limit%5B%5D=5', [AUTH], 400, 'invalid_query'],
  ['limit as an indexed array', '/v1/pets?limit[0]=5&limit[1]=6', [AUTH], 400, 'invalid_query'],
  ['limit as a list', '/v1/pets?limit=5,6', [AUTH], 400, 'invalid_query'],
  ['limit with bad percent-encoding', '/v1/pets?limit=%ZZ', [AUTH], 400, 'invalid_query'],
  ['a parameter name with bad percent-encoding', '/v1/pets?%E0%A4%A=1', [AUTH], 400, 'invalid_query'],
  ['limit=1', '/v1/pets?limit=1', [AUTH], 200, null],
  ['limit=100', '/v1/pets?limit=100', [AUTH], 200, null],
  ['limit=%31 (percent-encoded digit)', '/v1/pets?limit=%31', [AUTH], 200, null],
  ['an unknown parameter', '/v1/pets?page=2&sort=name', [AUTH], 200, null],
  ['an empty query', '/v1/pets?', [AUTH], 200, null],
  ['stray ampersands', '/v1/pets?&&limit=2&', [AUTH], 200, null],
  ...['Available', 'AVAILABLE', 'sold%20', '', 'lost', 'available,sold'].map((v): Case => [
    `status=${v}`,
    `/v1/pets?status=${v}`,
    [AUTH],
    400,
    'invalid_query',
  ]),
  ['status repeated', '/v1/pets?status=sold&status=sold', [AUTH], 400, 'invalid_query'],
  ['status as an array', '/v1/pets?status[]=sold', [AUTH], 400, 'invalid_query'],
];

const paths: Case[] = [
  ...[
    'abc',
    '1.0',
    '1e3',
    '0x1',
    '%2B1',
    '1%2F2',
    '%2E%2E',
    '..',
    '.',
    '1%00',
    '%00',
    '%ZZ',
    '%',
    '%E0%A4%A',
    '9223372036854775808',
    '-9223372036854775809',
    '99999999999999999999',
    ' 1'.replace(' ', '%20'),
    '%D9%A1',
    '%3Cscript%3E',
  ].map((id): Case => [`petId ${id}`, `/v1/pets/${id}`, [AUTH], 400, 'invalid_path_parameter']),
  ['petId -1 (an int64 no animal has)', '/v1/pets/-1', [AUTH], 404, 'pet_not_found'],
  ['petId 2^63-1', '/v1/pets/9223372036854775807', [AUTH], 404, 'pet_not_found'],
  ['petId 0', '/v1/pets/0', [AUTH], 404, 'pet_not_found'],
  ['petId %31 (percent-encoded digit)', '/v1/pets/%31', [AUTH], 200, null],
  ['a dot-dot segment', '/v1/pets/../pets', [AUTH], 404, 'route_not_found'],
  ['a raw slash in an id', '/v1/pets/1/2', [AUTH], 404, 'route_not_found'],
  ['/V1/PETS', '/V1/PETS', [AUTH], 404, 'route_not_found'],
  ['/v1/Pets', '/v1/Pets', [AUTH], 404, 'route_not_found'],
  ['a trailing slash', '/v1/pets/', [AUTH], 404, 'route_not_found'],
  ['a trailing slash after an id', '/v1/pets/1/', [AUTH], 404, 'route_not_found'],
  ['a double slash', '/v1//pets', [AUTH], 404, 'route_not_found'],
  ['an encoded slash in the collection path', '/v1%2Fpets', [AUTH], 404, 'route_not_found'],
  ['the root', '/', [AUTH], 404, 'route_not_found'],
  ['the asterisk form', '*', [AUTH], 404, 'route_not_found'],
  ['the absolute form', 'http://127.0.0.1/v1/pets?limit=1', [AUTH], 200, null],
];

const auth: Case[] = [
  ['no Authorization', '/v1/pets', [], 401, 'missing_api_key'],
  ['an empty Authorization', '/v1/pets', ['Authorization: '], 401, 'missing_api_key'],
  ['two Authorization headers', '/v1/pets', [AUTH, AUTH], 401, 'malformed_authorization'],
  ['two different Authorization headers', '/v1/pets', [AUTH, 'Authorization: Bearer demo-pro'], 401, 'malformed_authorization'],
  ['Bearer with no token', '/v1/pets', ['Authorization: Bearer'], 401, 'malformed_authorization'],
  ['Bearer and spaces', '/v1/pets', ['Authorization: Bearer    '], 401, 'malformed_authorization'],
  ['Bearer with two tokens', '/v1/pets', ['Authorization: Bearer demo-free demo-pro'], 401, 'malformed_authorization'],
  ['Bearer with a comma list', '/v1/pets', ['Authorization: Bearer demo-free, Bearer demo-pro'], 401, 'malformed_authorization'],
  ['illegal characters in the token', '/v1/pets', ['Authorization: Bearer demo<free>'], 401, 'malformed_authorization'],
  ['a quoted token', '/v1/pets', ['Authorization: Bearer "demo-free"'], 401, 'malformed_authorization'],
  ['a non-ASCII token', '/v1/pets', ['Authorization: Bearer d\u00e9mo'], 401, 'malformed_authorization'],
  ['a tab after Bearer', '/v1/pets', ['Authorization: Bearer\tdemo-free'], 401, 'malformed_authorization'],
  ['Basic auth', '/v1/pets', ['Authorization: Basic ZGVtbzpmcmVl'], 401, 'malformed_authorization'],
  ['the key without a scheme', '/v1/pets', ['Authorization: demo-free'], 401, 'malformed_authorization'],
  ['a key in the wrong case', '/v1/pets', ['Authorization: Bearer DEMO-FREE'], 401, 'invalid_api_key'],
  ['an unknown key', '/v1/pets', ['Authorization: Bearer nope'], 401, 'invalid_api_key'],
  ['a key in the query string', '/v1/pets?api_key=demo-free', [], 401, 'missing_api_key'],
  ['an access_token in the query string', '/v1/pets?access_token=demo-free', [], 401, 'missing_api_key'],
  ['bearer in lower case', '/v1/pets', ['Authorization: bearer demo-free'], 200, null],
  ['several spaces after Bearer', '/v1/pets', ['Authorization: BEARER   demo-free'], 200, null],
];

describe.each([
  ['the query of GET /v1/pets', queries],
  ['path ids and routing', paths],
  ['the Authorization header', auth],
])('hostile input: %s', (_group, cases) => {
  it.each(cases)('%s', async (_what, target, headers, status, code) => {
    const res = await send('GET', target, headers);
    expect(res.status).toBe(status);
    if (code === null) expect(Array.isArray(res.json) || typeof res.json?.id === 'number').toBe(true);
    else expect(res.json).toEqual(expect.objectContaining({ code, status, message: expect.any(String) }));
    if (status === 401) expect(res.headers['www-authenticate']).toBe(code === 'missing_api_key' ? MISSING : INVALID);
  });
});

it('says so when a key came in the query string', async () => {
  const res = await send('GET', '/v1/pets?api_key=demo-free', []);
  expect(res.json.message).toContain('Keys in the query string are not accepted');
});

describe('hostile input: sizes and framing', () => {
  it.each([
    ['a target of 8 KiB is served', 8 * 1024, 200, null],
    ['a target one byte over 8 KiB', 8 * 1024 + 1, 414, 'uri_too_long'],
    ['a target of 15 KiB', 15 * 1024, 414, 'uri_too_long'],
  ])('%s', async (_what, length, status, code) => {
    const prefix = '/v1/pets?limit=1&pad=';
    const res = await send('GET', `${prefix}${'a'.repeat(length - prefix.length)}`);
    expect(res.status).toBe(status);
    if (code) expect(res.json.code).toBe(code);
    expect(res.headers['x-ratelimit-limit']).toBe('60');
  });

  it.each([
    ['one 20 KiB header', [AUTH, `X-Pad: ${'a'.repeat(20 * 1024)}`]],
    ['a thousand small headers', [AUTH, ...Array.from({ length: 1000 }, (_, i) => `X-H${i}: ${'v'.repeat(20)}`)]],
    ['a 20 KiB Authorization header', [`Authorization: Bearer ${'k'.repeat(20 * 1024)}`]],
  ])('%s -> 431 headers_too_large', async (_what, headers) => {
    const res = await send('GET', '/v1/pets', headers);
    expect(res.status).toBe(431);
    expect(res.json).toEqual({ code: 'headers_too_large', message: expect.any(String), status: 431 });
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it.each([
    ['a raw non-ASCII byte in the path', 'GET /v1/pets/\u00ff HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a space in the path', 'GET /v1/pets/1 2 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a control character in a header name', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-\u0001: y\r\n\r\n'],
    ['an unknown method', 'FROB /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['two different Content-Lengths', 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'],
    ['Content-Length with Transfer-Encoding', 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['a negative Content-Length', 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n'],
    ['garbage', '\u0000\u0001\u0002 not http\r\n\r\n'],
  ])('%s -> 400 bad_request from the parser, and the server goes on', async (_what, text) => {
    const res = await rawRequest(mock(), Buffer.from(text, 'latin1'));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: 'bad_request', message: expect.any(String), status: 400 });
    expect((await send('GET', '/v1/pets?limit=1')).status).toBe(200);
  });

  it('reads a chunked body', async () => {
    const body = '{"name":"Chunky","categoryId":2}';
    const text =
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
      `${(10).toString(16)}\r\n${body.slice(0, 10)}\r\n${(body.length - 10).toString(16)}\r\n${body.slice(10)}\r\n0\r\n\r\n`;
    const res = await rawRequest(mock(), text);
    expect(res.status).toBe(201);
    expect(res.json.name).toBe('Chunky');
  });
});

describe('hostile input: the X-Mock-Session header', () => {
  it.each([
    ['markup', ['X-Mock-Session: <script>'], 400, 'invalid_session'],
    ['129 characters', [`X-Mock-Session: ${'s'.repeat(129)}`], 400, 'invalid_session'],
    ['a space', ['X-Mock-Session: a b'], 400, 'invalid_session'],
    ['an empty value', ['X-Mock-Session: '], 400, 'invalid_session'],
    ['two headers', ['X-Mock-Session: a', 'X-Mock-Session: b'], 400, 'invalid_session'],
    ['128 characters of the allowed set', [`X-Mock-Session: ${'a.b:c-d_'.repeat(16)}`], 200, null],
  ])('%s', async (_what, lines, status, code) => {
    const res = await send('GET', '/v1/pets?limit=1', [AUTH, ...lines]);
    expect(res.status).toBe(status);
    if (code) expect(res.json).toEqual(expect.objectContaining({ code, status }));
    else expect(res.headers['x-mock-session']).toBe('a.b:c-d_'.repeat(16));
  });
});

describe('hostile input: Expect', () => {
  it.each(['100-continue', 'teapot', '100-continue, x'])('Expect: %s is answered as the request, with the usual headers', async (expectation) => {
    const body = '{"name":"Rex","categoryId":3}';
    const res = await send('POST', '/v1/pets', [AUTH, 'Content-Type: application/json', `Expect: ${expectation}`], body);
    expect(res.status).toBe(201);
    expect(res.headers['x-ratelimit-limit']).toBe('60');
  });
});
