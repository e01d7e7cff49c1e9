import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/core/state/journal.js';
import { rateHeaders, setRateHeaders } from '../../src/core/state/limiter.js';
import { parseListQuery } from '../../src/core/input/validation.js';
import { MockError } from '../../src/core/errors.js';
import { authenticate } from '../../src/core/pipeline/auth.js';
import type { KeyConfig } from '../../src/core/types.js';
import { minuteDay } from '../../src/core/state/windows.js';

// The API path remembers what it formatted or parsed last; these tests pin down that a remembered
// answer is always the one a fresh computation would give.
describe('isoTime', () => {
  it.each([0, 1, 999, 1000, Date.UTC(2030, 11, 5), Date.UTC(2026, 2, 10, 12, 0, 0, 1)])('formats %d like toISOString', (ms) => {
    expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('gives the new instant after a repeated one, never the remembered text', () => {
    const t = Date.UTC(2026, 2, 10, 12, 0, 0);
    expect(isoTime(t)).toBe('2026-03-10T12:00:00.000Z');
    expect(isoTime(t)).toBe('2026-03-10T12:00:00.000Z');
    expect(isoTime(t + 1)).toBe('2026-03-10T12:00:00.001Z');
    expect(isoTime(t)).toBe('2026-03-10T12:00:00.000Z');
  });
});

describe('parseListQuery, asked again', () => {
  it.each([
    ['limit=5', { limit: 5 }],
    ['status=sold&limit=7', { limit: 7, status: 'sold' }],
    ['limit=%33', { limit: 3 }],
    ['', { limit: 20 }],
  ])('%j gives the same answer the second time', (query, expected) => {
    expect(parseListQuery(query)).toEqual(expected);
    expect(parseListQuery(query)).toEqual(expected);
  });

  it('refuses a bad query every time it is sent', () => {
    for (let i = 0; i < 3; i++) {
      expect(() => parseListQuery('limit=0')).toThrow(MockError);
      expect(() => parseListQuery('limit=1&limit=2')).toThrow(/at most once/);
    }
  });

  it('hands out answers nobody can change for the next request', () => {
    const first = parseListQuery('limit=9');
    expect(() => {
      (first as { limit: number }).limit = 50;
    }).toThrow(TypeError);
    expect(parseListQuery('limit=9').limit).toBe(9);
  });

  it('still answers correctly after more distinct queries than it remembers', () => {
    for (let i = 1; i <= 100; i++)
      for (const status of ['available', 'pending', 'sold', '']) parseListQuery(`limit=${i}&status=${status}`.replace(/&status=$/, ''));
    expect(parseListQuery('limit=42&status=pending')).toEqual({ limit: 42, status: 'pending' });
    expect(parseListQuery('limit=9')).toEqual({ limit: 9 });
  });
});

describe('setRateHeaders', () => {
  const refused = { limit: 60, remaining: 0, reset: 1_773_144_060, retryAfter: 42 };

  it('writes Retry-After only when asked to and the report has one', () => {
    const without: Record<string, string> = {};
    setRateHeaders(without, refused, false);
    expect(without).toEqual({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1773144060' });
    const withRetry: Record<string, string> = {};
    setRateHeaders(withRetry, refused, true);
    expect(withRetry['Retry-After']).toBe('42');
    const allowed: Record<string, string> = {};
    setRateHeaders(allowed, { limit: 60, remaining: 59, reset: 1_773_144_060 }, true);
    expect('Retry-After' in allowed).toBe(false);
  });

  it('agrees with rateHeaders', () => {
    const headers: Record<string, string> = {};
    setRateHeaders(headers, refused, true);
    expect(headers).toEqual(rateHeaders(refused));
  });
});

describe('authenticate, header after header', () => {
  const keys = new Map<string, KeyConfig>([
    ['demo-free', { key: 'demo-free', plan: 'free', limits: minuteDay(60, 1000) }],
    ['demo-pro', { key: 'demo-pro', plan: 'pro', limits: minuteDay(300, 10000) }],
  ]);
  const outcome = (authorization: string): string => {
    const result = authenticate({ authorization }, ['Authorization', authorization], keys, '');
    return result.ok ? result.key.key : result.error.code;
  };

  it('answers each header on its own, whatever came before', () => {
    const sequence: [string, string][] = [
      ['Bearer demo-free', 'demo-free'],
      ['Bearer demo-free', 'demo-free'],
      ['Bearer demo-pro', 'demo-pro'],
      ['Bearer  demo-pro ', 'demo-pro'],
      ['Basic demo-pro', 'malformed_authorization'],
      ['Basic demo-pro', 'malformed_authorization'],
      ['bearer demo-free', 'demo-free'],
      ['Bearer demo-nope', 'invalid_api_key'],
      ['Bearer demo-free', 'demo-free'],
      ['Bearer demo free', 'malformed_authorization'],
    ];
    expect(sequence.map(([header]) => outcome(header))).toEqual(sequence.map(([, expected]) => expected));
  });
});
