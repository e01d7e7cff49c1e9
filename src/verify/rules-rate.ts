// The rules that need the quota exhausted, run only when asked (--rate-limits): the 429 and its
// Retry-After, then one request after waiting exactly as told, which must not be refused.
import { retryAfterOf } from './client.js';
import { answered, fail, pass, skip, statusOf, type Rule } from './rule.js';
import { resetProblem } from './rules-answers.js';

const SEND_RETRY_AFTER = 'send Retry-After, whole seconds ≥ 1';

const ASK = 'needs the quota exhausted; run with --rate-limits to check it';

export const retryAfter: Rule = {
  id: 'ratelimit.retry-after',
  title: 'past the quota: 429 with Retry-After matching X-RateLimit-Reset',
  async run(ctx) {
    if (!ctx.options.rateLimits) return skip(ASK);
    const last = [...ctx.client.log].reverse().find((l) => l.request.auth === 'key' && l.exchange.response?.headers['x-ratelimit-remaining'] !== undefined);
    const remaining = Number(last?.exchange.response?.headers['x-ratelimit-remaining']);
    if (!last || !Number.isSafeInteger(remaining) || remaining < 0)
      return skip('no answer told X-RateLimit-Remaining, so verify cannot tell how many requests exhaust the quota');
    // One more than the quota left brings the 429; one after the wait for the no-ban rule.
    const needed = remaining + 2;
    const left = ctx.client.max - ctx.client.sent;
    if (needed > left)
      return skip(
        `exhausting the quota takes ${remaining + 1} more requests (X-RateLimit-Remaining: ${remaining}) and one after the wait, but ${left} of the budget are left; raise --max-requests to ${ctx.client.sent + needed}`,
      );
    for (let i = 0; i <= remaining; i++) {
      const logged = await ctx.client.send({ operation: 'listPets', method: 'GET', path: '/pets?limit=1', auth: 'key', accept429: true });
      if (statusOf(logged) === 429) {
        ctx.refusal = logged;
        break;
      }
    }
    const refusal = ctx.refusal;
    if (!refusal)
      return fail(
        `sent ${remaining + 1} request${remaining === 0 ? '' : 's'} after X-RateLimit-Remaining said ${remaining} and none was refused with 429`,
        last,
      );
    const seconds = retryAfterOf(refusal.exchange);
    const headers = refusal.exchange.response?.headers ?? {};
    const given = headers['retry-after'];
    if (seconds === undefined || seconds < 1)
      return fail(
        `${answered(refusal)} ${given === undefined ? 'without Retry-After' : `with Retry-After ${JSON.stringify(given)}`}; ${SEND_RETRY_AFTER}`,
        refusal,
      );
    const resetText = headers['x-ratelimit-reset']?.trim() ?? '';
    const reset = /^\d+$/.test(resetText) ? Number(resetText) : undefined;
    // A missing or wrong reset is ratelimit.headers' finding: this rule then judges Retry-After alone.
    if (reset === undefined || resetProblem(reset, refusal.at) !== undefined)
      return pass(`429 with Retry-After: ${seconds}; not compared with X-RateLimit-Reset, which ratelimit.headers finds wrong`);
    const date = Math.floor(refusal.at / 1000);
    // Date is whole seconds and Retry-After is rounded up: a second either way is the same instant.
    if (Math.abs(date + seconds - reset) > 1)
      return fail(
        `${answered(refusal)} with Retry-After: ${seconds}, but X-RateLimit-Reset ${reset} is ${reset - date} s after its Date (${new Date(refusal.at).toUTCString()}); Retry-After is the seconds until X-RateLimit-Reset`,
        refusal,
      );
    return pass(`429 with Retry-After: ${seconds}, and X-RateLimit-Reset ${reset} = Date + ${reset - date} s`);
  },
};

export const noBan: Rule = {
  id: 'ratelimit.no-ban',
  title: 'after waiting Retry-After, the next request is answered, not refused or banned',
  async run(ctx) {
    if (!ctx.options.rateLimits) return skip(ASK);
    const refusal = ctx.refusal;
    if (!refusal) return skip('ratelimit.retry-after brought no 429 to honour');
    const seconds = retryAfterOf(refusal.exchange);
    if (seconds === undefined || seconds < 1) return skip('the 429 gave no Retry-After to honour');
    if (seconds > ctx.client.maxWait) return skip(`the 429 asked to wait ${seconds} s, longer than the ${ctx.client.maxWait} s verify waits`);
    await ctx.client.wait(seconds);
    const after = await ctx.client.send({ operation: 'listPets', method: 'GET', path: '/pets?limit=1', auth: 'key', accept429: true });
    const status = statusOf(after);
    if (status === 429) {
      const code = after.seen.code;
      return fail(
        `waited the ${seconds} s Retry-After asked for, then ${answered(after)}${code === undefined ? '' : ` (${code})`}: refused though the wait was honoured; a request after the wait must be answered, and a refusal waited out must not count toward a ban`,
        refusal,
        after,
      );
    }
    if (status === undefined || status >= 300)
      return fail(`waited the ${seconds} s Retry-After asked for, then ${answered(after)}; a request after the wait must be answered`, after);
    return pass(`waited the ${seconds} s Retry-After asked for; the next request answered ${status}`);
  },
};
