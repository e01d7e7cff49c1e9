import { describe, expect, it } from 'vitest';
import { authenticate, redactKey } from '../../src/core/pipeline/auth.js';
import { VirtualClock, parseDuration, parseInstant } from '../../src/core/state/clock.js';
import { KeySpecError, PLAN_LIMITS, demoKeys, parseKeySpec } from '../../src/core/state/plans.js';
import type { KeyConfig } from '../../src/core/types.js';
import { minuteDay, parseWindows } from '../../src/core/state/windows.js';

describe('plans and keys', () => {
  it('carries the specification numbers for Free, Pro and Business', () => {
    expect(PLAN_LIMITS.free).toEqual(minuteDay(60, 1000));
    expect(PLAN_LIMITS.pro).toEqual(minuteDay(300, 10000));
    expect(PLAN_LIMITS.business).toEqual(minuteDay(1000, 100000));
  });

  it('has one demo key per plan', () => {
    expect(demoKeys().map((k) => `${k.key}:${k.plan}`)).toEqual(['demo-free:free', 'demo-pro:pro', 'demo-business:business', 'demo-enterprise:enterprise']);
  });

  it.each([
    ['ci:pro', { key: 'ci', plan: 'pro', limits: minuteDay(300, 10000) }],
    ['big:enterprise:100000:9000000', { key: 'big', plan: 'enterprise', limits: minuteDay(100000, 9000000), custom: true }],
    ['k:FREE', { key: 'k', plan: 'free', limits: minuteDay(60, 1000) }],
    ['k:enterprise:10/s,600/m,100000/d', { key: 'k', plan: 'enterprise', limits: parseWindows(['10/s', '600/m', '100000/d']), custom: true }],
    ['k:pro:100000/d,5/s,3000/h', { key: 'k', plan: 'pro', limits: parseWindows(['5/s', '3000/h', '100000/d']), custom: true }],
    ['k:pro:7/m', { key: 'k', plan: 'pro', limits: parseWindows(['7/m']), custom: true }],
  ])('parses --key %s', (spec, expected) => {
    expect(parseKeySpec(spec)).toEqual(expected);
  });

  it.each([
    ['nokey', 'is not valid'],
    ['k:gold', 'unknown plan "gold"'],
    ['k:pro:10', 'is not valid'],
    ['k:pro:0:10', 'at least 1'],
    ['k:pro:x:10', 'at least 1'],
    ['bad key:pro', 'characters a bearer token cannot hold'],
    ['k:pro:10/w', 'is not valid: "10/w" has the unit "w"; the units are s, m, h and d'],
    ['k:pro:0/s,5/m', 'is not valid: "0/s" allows no request'],
    ['k:pro:10/s,20/s', 'is not valid: the unit "s" is given twice'],
    ['k:pro:10/s,', 'is not valid: "" is not a window'],
    ['k:pro:ten/s', 'is not valid: "ten/s" is not a window'],
    ['k:pro:1/m:2/d:3', 'is not valid; write --key KEY:PLAN'],
  ])('refuses --key %s', (spec, fragment) => {
    expect(() => parseKeySpec(spec)).toThrow(KeySpecError);
    expect(() => parseKeySpec(spec)).toThrow(fragment);
  });
});

describe('authenticate', () => {
  const keys = new Map<string, KeyConfig>([
    ['demo-free', { key: 'demo-free', plan: 'free', limits: PLAN_LIMITS.free }],
    ['gone', { key: 'gone', plan: 'free', limits: PLAN_LIMITS.free, revoked: true }],
  ]);

  it.each(['Bearer demo-free', 'bearer demo-free', 'BEARER demo-free', 'Bearer  demo-free'])('accepts %j', (header) => {
    const result = authenticate({ authorization: header }, undefined, keys, '');
    expect(result.ok).toBe(true);
  });

  it.each([
    [undefined, 'missing_api_key', 'Bearer realm="petstore"'],
    ['', 'missing_api_key', 'Bearer realm="petstore"'],
    ['Bearer', 'malformed_authorization', 'Bearer realm="petstore", error="invalid_token"'],
    ['Bearer a b', 'malformed_authorization', 'Bearer realm="petstore", error="invalid_token"'],
    ['Basic ZGVtbzpmcmVl', 'malformed_authorization', 'Bearer realm="petstore", error="invalid_token"'],
    ['Bearer demo-free!', 'malformed_authorization', 'Bearer realm="petstore", error="invalid_token"'],
    ['Bearer DEMO-FREE', 'invalid_api_key', 'Bearer realm="petstore", error="invalid_token"'],
    ['Bearer gone', 'revoked_api_key', 'Bearer realm="petstore", error="invalid_token"'],
  ])('refuses %j with %s', (header, code, challenge) => {
    const result = authenticate({ authorization: header }, undefined, keys, '');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(code);
    expect(result.error.status).toBe(401);
    expect(result.error.headers?.['WWW-Authenticate']).toBe(challenge);
  });

  it('refuses two Authorization headers, which Node would fold to the first', () => {
    const raw = ['Authorization', 'Bearer demo-free', 'authorization', 'Bearer demo-free'];
    const result = authenticate({ authorization: 'Bearer demo-free' }, raw, keys, '');
    expect(result.ok ? 'ok' : result.error.code).toBe('malformed_authorization');
  });

  it('points a key sent in the query string to the header', () => {
    const result = authenticate({}, undefined, keys, 'api_key=demo-free');
    expect(result.ok ? '' : result.error.message).toContain('Keys in the query string are not accepted');
  });

  it('never shows a key in full', () => {
    expect(redactKey('demo-free')).not.toContain('demo-free');
    expect(redactKey('sk_live_0123456789')).toBe('sk_l…789');
    expect(redactKey('abc')).toBe('****');
  });
});

describe('VirtualClock', () => {
  it('runs with real time, shifted by set and advance', () => {
    let real = 1000;
    const clock = new VirtualClock(() => real);
    expect(clock.now()).toBe(1000);
    clock.advance(500);
    real = 2000;
    expect(clock.now()).toBe(2500);
    clock.set(10_000);
    real = 2100;
    expect(clock.now()).toBe(10_100);
  });

  it('stands still while frozen and resumes from there', () => {
    let real = 0;
    const clock = new VirtualClock(() => real);
    clock.freeze();
    real = 5000;
    expect(clock.now()).toBe(0);
    clock.advance(61_000);
    expect(clock.state()).toEqual({ now: new Date(61_000).toISOString(), frozen: true });
    clock.unfreeze();
    real = 6000;
    expect(clock.now()).toBe(62_000);
  });

  it.each([
    ['90s', 90_000],
    ['1m30s', 90_000],
    ['250ms', 250],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['1500', 1500],
    [61_000, 61_000],
  ])('parses the duration %j', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'soon', '5x', '1m 30s', '-5s', -1])('refuses the duration %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('parseInstant', () => {
  it.each([
    ['2030-12-05T00:00:00Z', Date.UTC(2030, 11, 5)],
    ['2030-12-05T01:00+01:00', Date.UTC(2030, 11, 5)],
    ['2028-02-29T12:30:15.250Z', Date.UTC(2028, 1, 29, 12, 30, 15, 250)],
    ['2030-02-30T00:00:00Z', undefined],
    ['2030-13-01T00:00:00Z', undefined],
    ['2030-12-05T24:00:00Z', undefined],
    ['2030-12-05T23:60:00Z', undefined],
    ['2030-12-05', undefined],
    ['tomorrow', undefined],
  ])('%s -> %s', (text, ms) => {
    expect(parseInstant(text)).toBe(ms);
  });
});
