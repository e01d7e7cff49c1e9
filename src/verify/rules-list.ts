// The rules of authentication and of the list: who may call, the page's default and bounds, and
// the status filter.
import { PET_STATUSES } from '../core/input/openapi.js';
import type { Auth, Logged } from './client.js';
import { CUT_BODY } from './shape.js';
import { cutProblem, fail, judge, pass, petsOf, statusOf, statusProblem, type Context, type Rule } from './rule.js';

/** A body a service must accept, sent only to see the 401 it must answer without a valid key. */
const NEW_PET = JSON.stringify({ name: 'petstore-mock verify', categoryId: 1, status: 'available' });

/** An id to fetch: one the list showed, or 1 when it showed none. */
export function someId(ctx: Context): string {
  return ctx.created?.id ?? ctx.pets[0]?.id ?? '1';
}

async function everyOperation(ctx: Context, auth: Auth): Promise<Logged[]> {
  const sent = [await ctx.client.send({ operation: 'listPets', method: 'GET', path: '/pets', auth })];
  if (!ctx.options.readOnly) sent.push(await ctx.client.send({ operation: 'createPet', method: 'POST', path: '/pets', auth, body: NEW_PET }));
  // After the removal the operation answers 410 whoever asks: deprecation.removal judges that.
  if (!ctx.removed) sent.push(await ctx.client.send({ operation: 'getPet', method: 'GET', path: `/pets/${someId(ctx)}`, auth }));
  return sent;
}

/** The rule that every operation answers 401 to requests sent with `auth`: `sent` words such requests in a failure, `passed` in a pass. */
const authRule = (id: string, title: string, auth: Auth, sent: string, passed: string): Rule => ({
  id,
  title,
  async run(ctx) {
    const answers = await everyOperation(ctx, auth);
    return judge(
      answers,
      (l) => statusProblem(l, 401, `${sent} the specification says 401`),
      `${answers.map((l) => l.request.operation).join(', ')} answer 401 ${passed}`,
    );
  },
});

export const authRequired = authRule('auth.required', 'every operation answers 401 without Authorization', 'none', 'without a key', 'without Authorization');
export const authInvalid = authRule(
  'auth.invalid-key',
  'every operation answers 401 to a key it did not issue',
  'wrong',
  'with an invalid key',
  'to an invalid key',
);

/** The length of a list answer, or a problem when it is not a 200 with an array. */
function listLength(logged: Logged): number | string {
  if (statusOf(logged) !== 200) return `expected 200 with a list`;
  if (logged.cut) return CUT_BODY;
  return Array.isArray(logged.json) ? logged.json.length : 'the body is not an array';
}

export const defaultLimit: Rule = {
  id: 'list.default-limit',
  title: 'GET /pets without limit returns 20 animals (all of them when there are fewer)',
  async run(ctx) {
    const all = listLength(ctx.probe);
    const page = await ctx.client.send({ operation: 'listPets', method: 'GET', path: '/pets', auth: 'key' });
    const got = listLength(page);
    if (typeof all === 'string')
      return fail(`cannot count the animals: ${statusOf(ctx.probe) === 200 ? all : `GET ?limit=100 answered ${statusOf(ctx.probe)}`}`, ctx.probe);
    if (typeof got === 'string') return fail(`GET /pets answered ${statusOf(page) ?? `nothing (${page.exchange.error})`}: ${got}`, page);
    const expected = Math.min(20, all);
    if (got !== expected)
      return fail(
        `GET /pets returned ${got} animals; with ${all === 100 ? '100 or more' : all} in the store the default page holds ${expected}`,
        page,
        ctx.probe,
      );
    return pass(
      all > 20
        ? `GET /pets returned 20 of the ${all === 100 ? '100 or more' : all} animals`
        : `the store holds ${all} animal${all === 1 ? '' : 's'}, fewer than 20; GET /pets returned ${all === 1 ? 'it' : 'them all'}`,
    );
  },
};

export const limitBounds: Rule = {
  id: 'list.limit-bounds',
  title: 'limit takes 1 to 100; 0 and 101 are refused with 400',
  async run(ctx) {
    const send = (limit: number) => ctx.client.send({ operation: 'listPets', method: 'GET', path: `/pets?limit=${limit}`, auth: 'key' });
    const one = await send(1);
    const zero = await send(0);
    const over = await send(101);
    const all = listLength(ctx.probe);
    return judge(
      [one, ctx.probe, zero, over],
      (l) => {
        if (l === zero || l === over) return statusProblem(l, 400, 'limit is 1 to 100, so the specification says 400');
        const max = l === one ? 1 : 100;
        const length = listLength(l);
        if (typeof length === 'string')
          return `${statusOf(l) === undefined ? `${l.exchange.request.url} got no answer` : `limit=${max} answered ${statusOf(l)}`}: ${length}`;
        if (length > max) return `limit=${max} returned ${length} animals`;
        if (l === one && typeof all === 'number' && all > 0 && length !== 1) return `limit=1 returned ${length} animals, and the store is not empty`;
        return undefined;
      },
      'limit=1 and limit=100 give at most that many animals; limit=0 and limit=101 answer 400',
    );
  },
};

export const statusFilter: Rule = {
  id: 'list.status-filter',
  title: 'status=available|pending|sold keeps only those animals; another value is refused with 400',
  async run(ctx) {
    const counts: string[] = [];
    const sent: Logged[] = [];
    for (const status of PET_STATUSES)
      sent.push(await ctx.client.send({ operation: 'listPets', method: 'GET', path: `/pets?status=${status}&limit=100`, auth: 'key' }));
    sent.push(await ctx.client.send({ operation: 'listPets', method: 'GET', path: '/pets?status=adopted', auth: 'key' }));
    const verdict = judge(
      sent,
      (l, i) => {
        const wanted = PET_STATUSES[i];
        if (wanted === undefined) return statusProblem(l, 400, 'status takes available, pending or sold, so the specification says 400');
        const cut = statusOf(l) === 200 ? cutProblem(l) : undefined;
        if (cut) return `status=${wanted}: ${cut}`;
        const pets = statusOf(l) === 200 ? petsOf(l.json) : undefined;
        if (pets === undefined) return `status=${wanted} answered ${statusOf(l) ?? 'nothing'}, not 200 with a list`;
        counts.push(`${pets.length} ${wanted}`);
        const other = pets.find((p) => p.status !== wanted);
        return other ? `status=${wanted} returned animal ${other.id} with status ${JSON.stringify(other.status)}` : undefined;
      },
      '',
    );
    return verdict.kind === 'pass' ? pass(`each status returns only its animals (${counts.join(', ')}); status=adopted answers 400`) : verdict;
  },
};
