// The rules every answer obeys, judged on all the answers the other rules collected: each aspect
// (error body, rate-limit headers, success body) is one rule's alone, so one fault fails one rule.
import type { Logged } from './client.js';
import { errorBodyProblem, isJson, successBodyProblem } from './schema.js';
import { answered, judge, skip, statusOf, type Rule } from './rule.js';

/** How far ahead a reset may lie: the longest window, a day, and a minute of clock skew. */
const MAX_RESET_AHEAD_S = 86_400 + 60;

const errorShape: Rule = {
  id: 'error.shape',
  title: 'every error answer is an application/json Error {code, message, status} whose status repeats the HTTP status',
  judgesAll: true,
  async run(ctx) {
    // The specification leaves the body of a 429 unspecified.
    const errors = ctx.client.log.filter((l) => (statusOf(l) ?? 0) >= 400 && statusOf(l) !== 429);
    if (errors.length === 0) return skip('no error answer to judge');
    return judge(
      errors,
      (l) => {
        const response = l.exchange.response;
        if (!response) return undefined;
        if (!isJson(response.headers['content-type'])) return `${answered(l)} with Content-Type ${JSON.stringify(response.headers['content-type'] ?? null)}`;
        const problem = errorBodyProblem(l.json);
        if (problem) return `${answered(l)} with a body that is not an Error: ${problem}`;
        const status = (l.json as { status: number }).status;
        return status === response.status ? undefined : `${answered(l)} with an Error whose status is ${status}`;
      },
      `${errors.length} error answers, each an Error whose status repeats the HTTP status`,
    );
  },
};

/** The value of a header as a whole number, or a problem. */
function whole(headers: Record<string, string>, name: string): number | string {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return `no ${name}`;
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : `${name} ${JSON.stringify(value)} is not a whole number`;
}

function rateHeadersProblem(l: Logged): string | undefined {
  const headers = l.exchange.response?.headers;
  if (!headers) return undefined;
  const limit = whole(headers, 'X-RateLimit-Limit');
  const remaining = whole(headers, 'X-RateLimit-Remaining');
  const reset = whole(headers, 'X-RateLimit-Reset');
  const problems = [limit, remaining, reset].filter((v): v is string => typeof v === 'string');
  if (typeof limit === 'number' && typeof remaining === 'number' && remaining > limit)
    problems.push(`X-RateLimit-Remaining ${remaining} exceeds X-RateLimit-Limit ${limit}`);
  if (typeof reset === 'number') {
    // The service's own Date is "now": a mock's clock may be virtual, and a real one's may differ from ours.
    const now = Math.floor(l.at / 1000);
    if (reset < now) problems.push(`X-RateLimit-Reset ${reset} is ${now - reset} s in the past (Date: ${new Date(l.at).toUTCString()})`);
    else if (reset > now + MAX_RESET_AHEAD_S)
      problems.push(`X-RateLimit-Reset ${reset} is not Unix seconds within a day of Date: ${new Date(l.at).toUTCString()}`);
  }
  return problems.length === 0 ? undefined : `${answered(l)} with ${problems.join(', ')}`;
}

const rateHeaders: Rule = {
  id: 'ratelimit.headers',
  title: 'every answer carries X-RateLimit-Limit, -Remaining and -Reset (Unix seconds, in the near future)',
  judgesAll: true,
  async run(ctx) {
    const answers = ctx.client.log.filter((l) => l.exchange.response);
    if (answers.length === 0) return skip('no answer to judge');
    return judge(answers, rateHeadersProblem, `all ${answers.length} answers carry the three headers, each Reset within a day of the answer's Date`);
  },
};

const bodies: Rule = {
  id: 'openapi.bodies',
  title: 'every successful answer is application/json and valid against the OpenAPI document',
  judgesAll: true,
  async run(ctx) {
    const answers = ctx.client.log.filter((l) => (statusOf(l) ?? 0) >= 200 && (statusOf(l) ?? 0) < 300);
    if (answers.length === 0) return skip('no successful answer to judge');
    return judge(
      answers,
      (l) => {
        const response = l.exchange.response;
        if (!response) return undefined;
        if (!isJson(response.headers['content-type'])) return `${answered(l)} with Content-Type ${JSON.stringify(response.headers['content-type'] ?? null)}`;
        const problem = successBodyProblem(l.operation, response.status, l.json);
        return problem ? `${answered(l)} with a body the document does not allow: ${problem}` : undefined;
      },
      `${answers.length} successful answers, each valid against the document`,
    );
  },
};

export const ANSWER_RULES: readonly Rule[] = [errorShape, rateHeaders, bodies];
