import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, MAX_JSON_DEPTH, parseJsonBody, parseJsonText } from '../../src/core/input/json.js';

describe('parseJsonText', () => {
  it.each([
    ['{"a":1,"b":[true,false,null],"c":"x"}', { a: 1, b: [true, false, null], c: 'x' }],
    ['  [1, -2.5, 3e2, 0]  ', [1, -2.5, 300, 0]],
    ['"\\u00e9\\n\\"\\/"', 'é\n"/'],
    ['"a\\b\\f\\n\\r\\t\\\\z"', 'a\b\f\n\r\t\\z'],
    ['12.0', 12],
    ['-0', -0],
    ['0e999', 0],
  ])('parses %s', (text, expected) => {
    expect(parseJsonText(text).value).toEqual(expected);
  });

  it('keeps integers past 2^53 exact as bigint, and says so', () => {
    const { value, hasBigInt } = parseJsonText('{"n":9007199254740993,"m":-9223372036854775808,"e":1.8e19}');
    expect(hasBigInt).toBe(true);
    expect(value).toEqual({ n: 9007199254740993n, m: -9223372036854775808n, e: 18000000000000000000n });
  });

  // Plain integers of up to 15 digits take a short path; these pin where it hands over to the full one.
  it.each([
    ['0', 0],
    ['-7', -7],
    ['999999999999999', 999999999999999],
    ['-999999999999999', -999999999999999],
    ['1000000000000000', 1000000000000000],
    ['12e1', 120],
    ['12.5', 12.5],
    ['[3,-4,5]', [3, -4, 5]],
    ['{"a":3 }', { a: 3 }],
  ])('reads the integer-like %s exactly', (text, expected) => {
    expect(parseJsonText(text)).toEqual({ value: expected, hasBigInt: false });
  });

  it.each(['-', '-a', '1.', '1e', '00', '-01', '3-'])('refuses the malformed number %j', (text) => {
    expect(() => parseJsonText(text)).toThrow(JsonSyntaxError);
  });

  it('keeps safe integers as numbers', () => {
    expect(parseJsonText('9007199254740991')).toEqual({ value: 9007199254740991, hasBigInt: false });
  });

  it.each([
    ['', 'empty'],
    ['{', 'ends too early'],
    ['{"a":1,}', 'quoted key'],
    ['[1,]', 'unexpected character'],
    ["{'a':1}", 'quoted key'],
    ['{"a":1}{', 'after the JSON value'],
    ['01', 'after the JSON value'],
    ['NaN', 'unexpected character'],
    ['1e400', 'too large'],
    ['"a\tb"', 'control character'],
    ['"\\x"', 'unknown escape'],
    ['"\\u12"', 'four hex digits'],
    ['{"a":1,"a":2}', 'appears twice'],
    ['{"__proto__":{"x":1}}', 'not allowed'],
    ['{"a":{"constructor":{"prototype":{}}}}', 'not allowed'],
    ['{"prototype":1}', 'not allowed'],
    ['tru', 'unexpected word'],
  ])('refuses %j (%s)', (text, fragment) => {
    expect(() => parseJsonText(text)).toThrow(JsonSyntaxError);
    expect(() => parseJsonText(text)).toThrow(fragment);
  });

  it('refuses nesting deeper than the limit without overflowing the stack', () => {
    const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(() => parseJsonText(ok)).not.toThrow();
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(() => parseJsonText(deep)).toThrow(`deeper than ${MAX_JSON_DEPTH}`);
  });

  it('never touches Object.prototype', () => {
    expect(() => parseJsonText('{"__proto__":{"polluted":true}}')).toThrow();
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('parseJsonBody', () => {
  it('refuses invalid UTF-8 and a byte order mark', () => {
    expect(() => parseJsonBody(new Uint8Array([0x7b, 0xff, 0x7d]))).toThrow('not valid UTF-8');
    expect(() => parseJsonBody(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toThrow('byte order mark');
  });

  it('decodes UTF-8', () => {
    expect(parseJsonBody(new TextEncoder().encode('{"name":"Zoë"}')).value).toEqual({ name: 'Zoë' });
  });
});

describe('non-integers a double would round to an integer', () => {
  it.each(['1e-400', '9007199254740993.5', '1.0000000000000000001', '-5e-500'])('keeps %s apart as a NonInteger', async (literal) => {
    const { NonInteger } = await import('../../src/core/input/json.js');
    const { value, hasBigInt } = parseJsonText(`{"n":${literal}}`);
    expect(hasBigInt).toBe(true);
    expect((value as { n: unknown }).n).toEqual(new NonInteger(literal));
  });
});
