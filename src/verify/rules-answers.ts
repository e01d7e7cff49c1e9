// The rules every answer obeys, judged on all the answers the other rules collected: each aspect
// (error body, rate-limit headers, success body) is one rule's alone, so one fault fails one rule.
import type { Logged } from './client.js';
import { isErrorAnswer, isSuccess } from './shape.js';
import { answered, judge, skip, statusOf, type Rule } from './rule.js';

/** How far ahead a reset may lie: the longest window, a day, and a minute of clock skew. */
const MAX_RESET_AHEAD_S = 86_400 + 60;

/** A rule judging the body of every answer `judged` picks, by the verdict the client reached on its arrival. */
const bodyRule = (id: string, title: string, judged: (status: number | undefined) => boolean, kind: string, passed: string): Rule => ({
  id,
  title,
  judgesAll: true,
  async run(ctx) {
    const answers = ctx.client.log.filter((l) => judged(statusOf(l)));
    if (answers.length === 0) return skip(`no ${kind} answer to judge`);
    return judge(answers, (l) => (l.shape === undefined ? undefined : `${answered(l)} ${l.shape}`), `${answers.length} ${kind} answers, each ${passed}`);
  },
});

export const errorShape = bodyRule(
  'error.shape',
  'every error answer is an application/json Error {code, message, status} whose status repeats the HTTP status',
  isErrorAnswer,
  'error',
  'an Error whose status repeats the HTTP status',
);

/** The value of a header as a whole number, or a problem. */
function whole(headers: Record<string, string>, name: string): number | string {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return `no ${name}`;
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : `${name} ${JSON.stringify(value)} is not a whole number`;
}

const UNIX_SECONDS = 'X-RateLimit-Reset is a Unix timestamp in seconds, when the window resets';

/**
 * What is wrong with a reset against the answer's Date (`at`), or undefined: it must be Unix
 * seconds no earlier than the Date and within a day of it. ratelimit.retry-after compares
 * Retry-After with it only when this finds nothing, so a wrong reset fails this rule alone.
 */
export function resetProblem(reset: number, at: number): string | undefined {
  // The service's own Date is "now": a mock's clock may be virtual, and a real one's may differ from ours.
  const now = Math.floor(at / 1000);
  if (reset < now) return `X-RateLimit-Reset ${reset} is ${now - reset} s in the past (Date: ${new Date(at).toUTCString()})`;
  if (reset > now + MAX_RESET_AHEAD_S) return `X-RateLimit-Reset ${reset} is not Unix seconds within a day of Date: ${new Date(at).toUTCString()}`;
  return undefined;
}

function rateHeadersProblem(l: Logged): string | undefined {
  const headers = l.exchange.response?.headers;
  if (!headers) return undefined;
  const limit = whole(headers, 'X-RateLimit-Limit');
  const remaining = whole(headers, 'X-RateLimit-Remaining');
  const reset = whole(headers, 'X-RateLimit-Reset');
  const problems: string[] = [];
  const remedies = new Set<string>();
  for (const value of [limit, remaining, reset]) {
    if (typeof value !== 'string') continue;
    problems.push(value);
    remedies.add(value.startsWith('no ') ? 'send X-RateLimit-Limit, -Remaining and -Reset on every answer' : 'each is a whole number');
  }
  if (typeof limit === 'number' && typeof remaining === 'number' && remaining > limit) {
    problems.push(`X-RateLimit-Remaining ${remaining} exceeds X-RateLimit-Limit ${limit}`);
    remedies.add('Remaining never exceeds Limit');
  }
  const late = typeof reset === 'number' ? resetProblem(reset, l.at) : undefined;
  if (late) {
    problems.push(late);
    remedies.add(UNIX_SECONDS);
  }
  return problems.length === 0 ? undefined : `${answered(l)} with ${problems.join(', ')}; ${[...remedies].join('; ')}`;
}

export const rateHeaders: Rule = {
  id: 'ratelimit.headers',
  title: 'every answer carries X-RateLimit-Limit, -Remaining and -Reset (Unix seconds, in the near future)',
  judgesAll: true,
  async run(ctx) {
    const answers = ctx.client.log.filter((l) => l.exchange.response);
    if (answers.length === 0) return skip('no answer to judge');
    return judge(answers, rateHeadersProblem, `all ${answers.length} answers carry the three headers, each Reset within a day of the answer's Date`);
  },
};

export const bodies = bodyRule(
  'openapi.bodies',
  'every successful answer is application/json and valid against the OpenAPI document',
  isSuccess,
  'successful',
  'valid against the document',
);
