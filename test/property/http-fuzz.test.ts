import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { responseProblem } from '../support/openapi-check.js';
import { useMock } from '../support/mock.js';
import { rawRequest } from '../support/raw.js';
import { at } from '../support/checked.js';

const { mock } = useMock({ keys: ['fuzz:enterprise:100000000:1000000000'] });

const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/);
const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 });
const anyByte = fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 });
const method = fc.oneof(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'), token);
const target = fc.oneof(
  fc.constantFrom('/v1/pets', '/v1/pets/1', '/v1/openapi.json', '/v1/store/orders', '/__admin/health', '*'),
  fc.webPath().map((p) => `/v1${p}`),
  fc.tuple(fc.constantFrom('/v1/pets?', '/v1/pets/'), printable).map(([a, b]) => a + b.replace(/ /g, '%20')),
  anyByte.map((s) => `/v1/pets/${s}`),
);
const header = fc.oneof(
  // Framing headers come only from the fixed list below, so every body is framed honestly and a
  // request that gets no answer is a failure, not a client that never finished.
  fc
    .tuple(
      token.filter((n) => !/^(content-length|transfer-encoding)$/i.test(n)),
      printable,
    )
    .map(([n, v]) => `${n}: ${v}`),
  fc.constantFrom(
    'Authorization: Bearer fuzz',
    'Authorization: Bearer fuzz',
    'Content-Type: application/json',
    'Content-Encoding: gzip',
    'Transfer-Encoding: chunked',
    'X-Mock-Session: fuzz',
    'Origin: http://x',
    'Access-Control-Request-Method: POST',
    'Expect: 100-continue',
  ),
  // Any byte but CR and LF, which would start a header line of their own (a framing one among them).
  anyByte.map((s) => `X-Raw: ${s.replace(/[\r\n]/g, '')}`),
);
const body = fc.oneof(fc.constant(''), fc.json(), anyByte);

describe('any request on the socket', () => {
  it('gets an HTTP answer below 500 (501 for store orders) that the OpenAPI document allows, and the server lives on', async () => {
    await fc.assert(
      fc.asyncProperty(method, target, fc.array(header, { maxLength: 6 }), body, async (m, t, headers, b) => {
        const chunked = headers.includes('Transfer-Encoding: chunked');
        const length = !chunked && b ? [`Content-Length: ${Buffer.byteLength(b, 'latin1')}`] : [];
        // A chunked body is framed, so the server is never left waiting for the rest of it.
        const framed = chunked ? `${b ? `${Buffer.byteLength(b, 'latin1').toString(16)}\r\n${b}\r\n` : ''}0\r\n\r\n` : b;
        const text = `${m} ${t} HTTP/1.1\r\nHost: x\r\n${[...headers, ...length].map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n${framed}`;
        const reply = await rawRequest(mock(), Buffer.from(text, 'latin1'), 5_000);
        expect(reply.status).toBeGreaterThanOrEqual(100);
        // 501 is the documented answer for the store orders the specification leaves undefined.
        expect(reply.status < 500 || (reply.status === 501 && t.startsWith('/v1/store'))).toBe(true);
        expect(responseProblem(m, at(t.split('?'), 0), reply.status, new Headers(reply.headers), reply.body)).toBeUndefined();
      }),
      { numRuns: 150 },
    );
    const res = await fetch(`${mock().url}/pets?limit=1`, { headers: { authorization: 'Bearer fuzz' } });
    expect(res.status).toBe(200);
  }, 60_000);
});
