// Test servers that break one rule each: the mock behind a proxy with one deliberate fault.
// verify must fail exactly that rule, and show what it sent and what came back.
import { afterEach, describe, expect, it } from 'vitest';
import { verify } from '../../src/index.js';
import { faultProxy, type Fault, type ProxiedAnswer, type ProxiedRequest } from '../support/fault-proxy.js';
import { failedIds, freshSession, useVerifyMock } from './support.js';

const mock = useVerifyMock();
const proxies: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const p of proxies.splice(0)) await p.close();
});

const isGetPet = (r: ProxiedRequest): boolean => r.method === 'GET' && /^\/v1\/pets\/\d+$/.test(r.url.pathname);
const isList = (r: ProxiedRequest): boolean => r.method === 'GET' && r.url.pathname === '/v1/pets';
const errorBody = (a: ProxiedAnswer, status: number): void => {
  a.status = status;
  a.json = { ...a.json, status };
};

interface Case {
  rule: string;
  fault: Fault;
  key?: string;
  rateLimits?: boolean;
  scenario?: string;
  /** What the failing rule's message says. */
  says: RegExp;
}

const CASES: Case[] = [
  {
    rule: 'auth.required',
    fault: { request: (r) => void (r.headers.authorization ??= 'Bearer demo-pro') },
    says: /GET \/v1\/pets answered 200; without a key the specification says 401/,
  },
  {
    rule: 'auth.invalid-key',
    fault: { request: (r) => void (r.headers.authorization === 'Bearer petstore-mock-verify-not-a-key' && (r.headers.authorization = 'Bearer demo-pro')) },
    says: /answered 200; with an invalid key the specification says 401/,
  },
  {
    rule: 'error.shape',
    fault: { answer: (a) => void (a.status >= 400 && delete a.json.status) },
    says: /answered 401 with a body that is not an Error: the body must have required property 'status'/,
  },
  {
    rule: 'list.default-limit',
    fault: { request: (r) => void (isList(r) && r.url.search === '' && (r.url.search = '?limit=25')) },
    says: /^GET \/pets returned 25 animals; with 100 or more in the store the default page holds 20$|^GET \/pets returned 25 animals; with \d+ in the store the default page holds 20$/,
  },
  {
    rule: 'list.limit-bounds',
    fault: { answer: (a, r) => void (isList(r) && /limit=(0|101)/.test(r.url.search) && errorBody(a, 422)) },
    says: /GET \/v1\/pets\?limit=0 answered 422; limit is 1 to 100, so the specification says 400/,
  },
  {
    rule: 'list.status-filter',
    fault: { request: (r) => void (isList(r) && r.url.searchParams.get('status') === 'pending' && r.url.searchParams.delete('status')) },
    says: /^status=pending returned animal \d+ with status "(available|sold)"$/,
  },
  {
    rule: 'create.assigns-id',
    fault: { answer: (a) => void (a.status === 201 && (a.status = 200)) },
    says: /POST \/v1\/pets answered 200; a created animal is answered with 201/,
  },
  {
    rule: 'create.rejects-invalid',
    fault: {
      request: (r) => {
        if (r.method !== 'POST') return;
        const body = JSON.parse(r.body);
        if (body.name === undefined) r.body = JSON.stringify({ ...body, name: 'added by the proxy' });
      },
    },
    says: /^a body without name: POST \/v1\/pets answered 201, and the specification says 400$/,
  },
  {
    rule: 'get.found',
    fault: { answer: (a, r) => void (isGetPet(r) && a.status === 200 && (a.json.name = 'Someone else')) },
    says: /^animal \d+ has name "Someone else" here and "petstore-mock verify" in the create$/,
  },
  {
    rule: 'get.not-found',
    fault: { answer: (a, r) => void (isGetPet(r) && a.status === 404 && errorBody(a, 400)) },
    says: /GET \/v1\/pets\/9223372036854775807 answered 400; an animal that does not exist is a 404/,
  },
  {
    rule: 'deprecation.headers',
    fault: { answer: (a, r) => void (isGetPet(r) && a.status === 200 && delete a.headers.sunset) },
    says: /answered 200 with no Sunset header/,
  },
  {
    rule: 'deprecation.removal',
    scenario: 'removed',
    fault: { answer: (a, r) => void (isGetPet(r) && a.status === 410 && errorBody(a, 404)) },
    says: /answered 404; the service's clock reads 2031-01-01T00:00:00\.000Z, past the removal, so the specification says 410/,
  },
  {
    rule: 'ratelimit.headers',
    fault: { answer: (a) => void (a.status === 401 && delete a.headers['x-ratelimit-reset']) },
    says: /answered 401 with no X-RateLimit-Reset/,
  },
  {
    rule: 'ratelimit.retry-after',
    key: 'k20',
    rateLimits: true,
    fault: { answer: (a) => void (a.status === 429 && (a.headers['x-ratelimit-reset'] = String(Number(a.headers['x-ratelimit-reset']) + 30))) },
    says: /answered 429 with Retry-After: \d+, but X-RateLimit-Reset \d+ is \d+ s after its Date/,
  },
  {
    rule: 'ratelimit.no-ban',
    key: 'k20',
    rateLimits: true,
    fault: (() => {
      let refused = false;
      return {
        answer: (a: ProxiedAnswer) => {
          if (refused) {
            a.status = 429;
            a.headers['retry-after'] = '120';
            a.json = { code: 'key_banned', message: 'Banned by the proxy.', status: 429 };
          }
          if (a.status === 429) refused = true;
        },
      };
    })(),
    says: /^waited the \d+ s Retry-After asked for, then GET \/v1\/pets\?limit=1 answered 429 \(key_banned\): refused though the wait was honoured; a request after the wait must be answered, and a refusal waited out must not count toward a ban$/,
  },
  {
    rule: 'openapi.bodies',
    fault: { answer: (a, r) => void (isList(r) && a.status === 200 && a.json.forEach((p: Record<string, unknown>) => (p.tag = 'extra'))) },
    says: /answered 200 with a body the document does not allow: \/0 must NOT have additional properties \(tag\)/,
  },
];

describe('a service that breaks one rule', () => {
  it('a proxy with no fault is transparent: nothing fails', async () => {
    const proxy = await faultProxy(mock().origin, {});
    proxies.push(proxy);
    const { options } = freshSession(mock());
    const report = await verify(proxy.url, { key: 'demo-pro', ...options });
    expect(failedIds(report)).toEqual([]);
  });

  it('covers every rule with one fault', async () => {
    const { VERIFY_RULES } = await import('../../src/verify/run.js');
    expect(CASES.map((c) => c.rule).sort()).toEqual(VERIFY_RULES.map((r) => r.id).sort());
  });

  it.each(CASES)('fails $rule and only it', async ({ rule, fault, key = 'demo-pro', rateLimits = false, scenario, says }) => {
    const proxy = await faultProxy(mock().origin, fault);
    proxies.push(proxy);
    const { options } = freshSession(mock(), scenario);
    const report = await verify(proxy.url, { key, rateLimits, ...options });
    expect(failedIds(report)).toEqual([rule]);
    expect(report.failed).toBe(1);
    const failed = report.rules.find((r) => r.id === rule);
    expect(failed?.message).toMatch(says);
    // What was sent and what came back, the key never shown.
    expect(failed?.evidence.length).toBeGreaterThan(0);
    for (const exchange of failed?.evidence ?? []) {
      expect(exchange.request.url).toMatch(new RegExp(`^${proxy.url}/pets`));
      expect(exchange.response?.status).toEqual(expect.any(Number));
      if (exchange.request.headers.authorization?.includes(key)) throw new Error(`the key shows in ${exchange.request.headers.authorization}`);
    }
  });
});
