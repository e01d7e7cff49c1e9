// verify against a second implementation of the API, written in the test from the specification:
// faithful, it passes every rule with rateLimits; with one deliberate deviation it fails that
// deviation's rule alone, and the message says what the deployment should do.
import { afterEach, describe, expect, it } from 'vitest';
import { verify, type VerifyReport } from '../../src/index.js';
import { faithfulServer, KEY, type Deviation, type FaithfulServer } from './faithful-server.js';
import { failedIds, passedIds, skippedIds } from './support.js';

const servers: FaithfulServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function run(deviation: Deviation = {}, start?: number): Promise<VerifyReport> {
  const server = await faithfulServer({ quota: 30, deviation, ...(start === undefined ? {} : { start }) });
  servers.push(server);
  return verify(server.base, { key: KEY, rateLimits: true, wait: async (seconds) => server.advance(seconds) });
}

const isList = (a: { method: string; path: string }): boolean => a.method === 'GET' && a.path === '/v1/pets';
const isGetPet = (a: { method: string; path: string }): boolean => a.method === 'GET' && /^\/v1\/pets\/\d+$/.test(a.path);
const AFTER_REMOVAL = Date.UTC(2031, 0, 1);

interface Case {
  rule: string;
  deviation: Deviation;
  start?: number;
  /** The failing rule's message, what to do included. */
  says: RegExp;
}

const CASES: Case[] = [
  {
    rule: 'auth.required',
    deviation: { request: (a) => void (a.token ??= KEY) },
    says: /^GET \/v1\/pets answered 200; without a key the specification says 401/,
  },
  {
    rule: 'auth.invalid-key',
    deviation: { request: (a) => void (a.token === 'petstore-mock-verify-not-a-key' && (a.token = KEY)) },
    says: /answered 200; with an invalid key the specification says 401/,
  },
  {
    rule: 'error.shape',
    deviation: { answer: (a) => void (a.status === 401 && (a.body = { error: 'unauthorized' })) },
    says: /^GET \/v1\/pets answered 401 with a body that is not an Error: the body must have required property 'code'.*; send \{code, message, status\}/,
  },
  {
    rule: 'list.default-limit',
    deviation: { request: (a) => void (isList(a) && a.token === KEY && !a.query.has('limit') && !a.query.has('status') && a.query.set('limit', '25')) },
    says: /^GET \/pets returned 25 animals; with 30 in the store the default page holds 20$/,
  },
  {
    rule: 'list.limit-bounds',
    deviation: {
      answer: (a, q) => void (isList(q) && a.status === 400 && q.query.has('limit') && ((a.status = 422), (a.body = { code: 'x', message: 'x', status: 422 }))),
    },
    says: /^GET \/v1\/pets\?limit=0 answered 422; limit is 1 to 100, so the specification says 400/,
  },
  {
    rule: 'list.status-filter',
    deviation: { request: (a) => void (a.query.get('status') === 'sold' && a.query.delete('status')) },
    says: /^status=sold returned animal \d+ with status "(available|pending)"$/,
  },
  {
    rule: 'create.assigns-id',
    deviation: { answer: (a) => void (a.status === 201 && (a.status = 200)) },
    says: /^POST \/v1\/pets answered 200; a created animal is answered with 201/,
  },
  {
    rule: 'create.rejects-invalid',
    deviation: { request: (a) => void (a.method === 'POST' && !a.body.includes('"name"') && (a.body = a.body.replace('{', '{"name":"added",'))) },
    says: /^a body without name: POST \/v1\/pets answered 201, and the specification says 400$/,
  },
  {
    rule: 'get.found',
    deviation: { answer: (a, q) => void (isGetPet(q) && a.status === 200 && (a.body = { ...(a.body as object), name: 'Someone else' })) },
    says: /^animal \d+ has name "Someone else" here and "petstore-mock verify" in the create$/,
  },
  {
    rule: 'get.not-found',
    deviation: { answer: (a, q) => void (isGetPet(q) && a.status === 404 && ((a.status = 400), (a.body = { code: 'x', message: 'x', status: 400 }))) },
    says: /^GET \/v1\/pets\/9223372036854775807 answered 400; an animal that does not exist is a 404/,
  },
  {
    rule: 'deprecation.headers',
    deviation: { answer: (a, q) => void (isGetPet(q) && delete a.headers.sunset) },
    says: /answered 200 with no Sunset header/,
  },
  {
    rule: 'deprecation.removal',
    start: AFTER_REMOVAL,
    deviation: { answer: (a, q) => void (isGetPet(q) && a.status === 410 && ((a.status = 404), (a.body = { code: 'x', message: 'x', status: 404 }))) },
    says: /answered 404; the service's clock reads 2031-01-01T00:00:\d\d\.000Z, past the removal, so the specification says 410/,
  },
  {
    // The case: a reset in seconds from now, not a Unix timestamp. Only the headers rule fails.
    rule: 'ratelimit.headers',
    deviation: {
      answer: (a) => void (a.headers['x-ratelimit-reset'] = String(Number(a.headers['x-ratelimit-reset']) - Date.parse(a.headers.date ?? '') / 1000)),
    },
    says: /^GET \/v1\/pets\?limit=100 answered 200 with X-RateLimit-Reset 60 is \d+ s in the past .*; X-RateLimit-Reset is a Unix timestamp in seconds/,
  },
  {
    rule: 'ratelimit.retry-after',
    deviation: { answer: (a) => void delete a.headers['retry-after'] },
    says: /^GET \/v1\/pets\?limit=1 answered 429 without Retry-After; send Retry-After, whole seconds ≥ 1$/,
  },
  {
    rule: 'ratelimit.headers',
    deviation: { answer: (a) => void (a.headers['x-ratelimit-reset'] = `${a.headers['x-ratelimit-reset']}000`) },
    says: /^GET \/v1\/pets\?limit=100 answered 200 with X-RateLimit-Reset \d+000 is not Unix seconds within a day of Date: .*; X-RateLimit-Reset is a Unix timestamp in seconds/,
  },
  {
    // Without Remaining verify cannot tell how many requests exhaust the quota: the quota rules skip, they do not fail.
    rule: 'ratelimit.headers',
    deviation: { answer: (a) => void delete a.headers['x-ratelimit-remaining'] },
    says: /^GET \/v1\/pets\?limit=100 answered 200 with no X-RateLimit-Remaining; send X-RateLimit-Limit, -Remaining and -Reset on every answer/,
  },
  {
    rule: 'ratelimit.retry-after',
    deviation: { answer: (a) => void (a.status === 429 && (a.headers['retry-after'] = new Date(Date.parse(a.headers.date ?? '') + 30_000).toUTCString())) },
    says: /^GET \/v1\/pets\?limit=1 answered 429 with Retry-After "\w{3}, .* GMT"; send Retry-After, whole seconds ≥ 1$/,
  },
  {
    rule: 'ratelimit.retry-after',
    deviation: { answer: (a) => void (a.status === 429 && (a.headers['retry-after'] = '0')) },
    says: /^GET \/v1\/pets\?limit=1 answered 429 with Retry-After "0"; send Retry-After, whole seconds ≥ 1$/,
  },
  {
    rule: 'ratelimit.retry-after',
    deviation: { answer: (a) => void (a.status === 429 && (a.headers['retry-after'] = String(Number(a.headers['retry-after']) + 30))) },
    says: /^GET \/v1\/pets\?limit=1 answered 429 with Retry-After: \d+, but X-RateLimit-Reset \d+ is \d+ s after its Date \(.*\); Retry-After is the seconds until X-RateLimit-Reset$/,
  },
  {
    rule: 'ratelimit.no-ban',
    deviation: (() => {
      let refused = false;
      return {
        answer: (a: { status: number; headers: Record<string, string>; body: unknown }) => {
          if (refused)
            Object.assign(a, { status: 429, headers: { ...a.headers, 'retry-after': '600' }, body: { code: 'key_banned', message: 'Banned.', status: 429 } });
          if (a.status === 429) refused = true;
        },
      };
    })(),
    says: /^waited the \d+ s Retry-After asked for, then GET \/v1\/pets\?limit=1 answered 429 \(key_banned\): refused though the wait was honoured; a request after the wait must be answered/,
  },
  {
    rule: 'openapi.bodies',
    deviation: {
      answer: (a, q) => void (isList(q) && a.status === 200 && Array.isArray(a.body) && a.body.forEach((p: Record<string, unknown>) => (p.tag = 'x'))),
    },
    says: /answered 200 with a body the document does not allow: \/0 must NOT have additional properties \(tag\)/,
  },
];

describe('verify against a hand-made implementation', () => {
  it('passes every rule but the removal (before its date) with rateLimits', async () => {
    const report = await run();
    expect(failedIds(report)).toEqual([]);
    expect(skippedIds(report)).toEqual(['deprecation.removal']);
    expect(passedIds(report)).toHaveLength(15);
  });

  it('passes the removal after its date, the get rules skipped', async () => {
    const report = await run({}, AFTER_REMOVAL);
    expect(failedIds(report)).toEqual([]);
    expect(skippedIds(report)).toEqual(['get.found', 'get.not-found']);
  });

  it('holds a deviation for every rule', async () => {
    const { VERIFY_RULES } = await import('../../src/verify/run.js');
    expect([...new Set(CASES.map((c) => c.rule))].sort()).toEqual(VERIFY_RULES.map((r) => r.id).sort());
  });

  it.each(CASES)('fails $rule alone when the implementation deviates there', async ({ rule, deviation, start, says }) => {
    const report = await run(deviation, start);
    expect(failedIds(report)).toEqual([rule]);
    expect(report.rules.find((r) => r.id === rule)?.message).toMatch(says);
  });
});
