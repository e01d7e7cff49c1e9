// The rules of one animal: create, get, and the deprecation of get with its removal date.
import { DEFAULT_REMOVAL_AT } from '../core/pipeline/deprecation.js';
import type { Logged } from './client.js';
import { someId } from './rules-list.js';
import { answered, cutProblem, fail, idText, judge, pass, skip, statusOf, statusProblem, type Rule } from './rule.js';

const SENT = { name: 'petstore-mock verify', categoryId: 7, status: 'pending' } as const;

/** An id no service should hold: the largest int64. */
const UNKNOWN_ID = '9223372036854775807';

const REMOVAL = new Date(DEFAULT_REMOVAL_AT).toUTCString();

const READ_ONLY = 'sends a POST, and --read-only sends none';

/** The id text exactly as the body wrote it, so an int64 past 2^53 is fetched as it was assigned. */
function rawId(logged: Logged): string | undefined {
  const match = /"id"\s*:\s*(-?\d+)\s*[,}]/.exec(logged.exchange.response?.body ?? '');
  return match?.[1];
}

export const createAssigns: Rule = {
  id: 'create.assigns-id',
  title: 'POST /pets answers 201 with the animal and an assigned integer id',
  async run(ctx) {
    if (ctx.options.readOnly) return skip(`this rule ${READ_ONLY}`);
    const logged = await ctx.client.send({ operation: 'createPet', method: 'POST', path: '/pets', auth: 'key', body: JSON.stringify(SENT) });
    const problem = statusProblem(logged, 201, 'a created animal is answered with 201') ?? cutProblem(logged);
    if (problem) return fail(problem, logged);
    const pet = typeof logged.json === 'object' && logged.json !== null ? (logged.json as Record<string, unknown>) : undefined;
    if (!pet) return fail('the 201 body is not an animal', logged);
    if (typeof pet.id !== 'number' || !Number.isInteger(pet.id)) return fail(`the created animal's id is ${JSON.stringify(pet.id)}, not an integer`, logged);
    for (const field of ['name', 'categoryId', 'status'] as const) {
      if (pet[field] !== SENT[field])
        return fail(`the created animal has ${field} ${JSON.stringify(pet[field])}; it was sent ${JSON.stringify(SENT[field])}`, logged);
    }
    const id = idText(pet.id) ?? rawId(logged) ?? String(pet.id);
    ctx.created = { id, name: pet.name, categoryId: pet.categoryId, status: pet.status };
    return pass(`201 with id ${id} and the fields sent`);
  },
};

const INVALID: readonly { what: string; body: Record<string, unknown> }[] = [
  { what: 'without name', body: { categoryId: 1 } },
  { what: 'without categoryId', body: { name: 'petstore-mock verify' } },
  { what: 'with status "adopted"', body: { name: 'petstore-mock verify', categoryId: 1, status: 'adopted' } },
  { what: 'with categoryId "one"', body: { name: 'petstore-mock verify', categoryId: 'one' } },
];

export const createRejects: Rule = {
  id: 'create.rejects-invalid',
  title: 'POST /pets refuses missing fields and invalid values with 400',
  async run(ctx) {
    if (ctx.options.readOnly) return skip(`this rule ${READ_ONLY}`);
    const sent: Logged[] = [];
    for (const { body } of INVALID)
      sent.push(await ctx.client.send({ operation: 'createPet', method: 'POST', path: '/pets', auth: 'key', body: JSON.stringify(body) }));
    return judge(
      sent,
      (l, i) => (statusOf(l) === 400 ? undefined : `a body ${INVALID[i]!.what}: ${answered(l)}, and the specification says 400`),
      `400 for a body ${INVALID.map((i) => i.what).join(', ')}`,
    );
  },
};

const REMOVED = `GET /pets/{petId} was removed on ${REMOVAL} by the service's clock; deprecation.removal checks its 410`;

export const getFound: Rule = {
  id: 'get.found',
  title: 'GET /pets/{petId} answers 200 with the animal',
  async run(ctx) {
    if (ctx.removed) return skip(REMOVED);
    const known = ctx.created ?? ctx.pets[0];
    if (!known) return skip('no animal to fetch: the list is empty and --read-only creates none');
    const logged = await ctx.client.send({ operation: 'getPet', method: 'GET', path: `/pets/${known.id}`, auth: 'key' });
    const problem =
      statusProblem(logged, 200, `animal ${known.id} was ${ctx.created ? 'just created' : 'listed'}, so the specification says 200`) ?? cutProblem(logged);
    if (problem) return fail(problem, logged);
    const pet = (typeof logged.json === 'object' && logged.json !== null ? logged.json : {}) as Record<string, unknown>;
    const id = idText(pet.id) ?? rawId(logged);
    if (id !== known.id) return fail(`asked for animal ${known.id} and got id ${JSON.stringify(pet.id)}`, logged);
    for (const field of ['name', 'categoryId', 'status'] as const) {
      if (known[field] !== undefined && pet[field] !== known[field])
        return fail(
          `animal ${known.id} has ${field} ${JSON.stringify(pet[field])} here and ${JSON.stringify(known[field])} in the ${ctx.created ? 'create' : 'list'}`,
          logged,
        );
    }
    return pass(`200 with animal ${known.id} as the ${ctx.created ? 'create' : 'list'} showed it`);
  },
};

export const getNotFound: Rule = {
  id: 'get.not-found',
  title: 'GET /pets/{petId} answers 404 for an unknown id',
  async run(ctx) {
    if (ctx.removed) return skip(REMOVED);
    const logged = await ctx.client.send({ operation: 'getPet', method: 'GET', path: `/pets/${UNKNOWN_ID}`, auth: 'key' });
    const problem = statusProblem(logged, 404, 'an animal that does not exist is a 404');
    return problem ? fail(problem, logged) : pass(`404 for id ${UNKNOWN_ID}`);
  },
};

/** What is missing or wrong in an answer's deprecation signals, or undefined. */
function deprecationProblem(logged: Logged): string | undefined {
  const headers = logged.exchange.response?.headers;
  if (!headers) return undefined;
  const problems: string[] = [];
  const deprecation = headers['deprecation'];
  if (deprecation === undefined) problems.push('no Deprecation header');
  else if (!/^@-?\d+$/.test(deprecation.trim())) problems.push(`Deprecation ${JSON.stringify(deprecation)} is not an RFC 9745 date (@<unix seconds>)`);
  const sunset = headers['sunset'];
  if (sunset === undefined) problems.push('no Sunset header');
  else if (Date.parse(sunset) !== DEFAULT_REMOVAL_AT) problems.push(`Sunset ${JSON.stringify(sunset)} is not the removal date, ${REMOVAL}`);
  const link = headers['link'];
  if (link === undefined) problems.push('no Link header');
  else if (!/<[^>]*\/pets(\?[^>]*)?>/.test(link)) problems.push(`Link ${JSON.stringify(link)} does not point to the replacement, GET /pets`);
  return problems.length === 0 ? undefined : `${answered(logged)} with ${problems.join(', ')}`;
}

export const deprecationHeaders: Rule = {
  id: 'deprecation.headers',
  title: 'GET /pets/{petId} answers carry Deprecation, Sunset (5 December 2030) and a Link to GET /pets',
  judgesAll: true,
  async run(ctx) {
    const answers = ctx.client.log.filter((l) => l.request.operation === 'getPet' && l.request.auth === 'key' && l.exchange.response);
    if (answers.length === 0) return skip('no answer of GET /pets/{petId} with the key to judge');
    return judge(
      answers,
      deprecationProblem,
      `${answers.length} answer${answers.length === 1 ? '' : 's'} of GET /pets/{petId} ${answers.length === 1 ? 'carries' : 'carry'} all three`,
    );
  },
};

export const removal: Rule = {
  id: 'deprecation.removal',
  title: 'GET /pets/{petId} answers 410 from 5 December 2030',
  async run(ctx) {
    if (!ctx.removed)
      return skip(
        `the service's clock reads ${new Date(ctx.probe.at).toISOString()}, before the removal on ${REMOVAL}; the mock shows this rule with --scenario removed`,
      );
    const logged = await ctx.client.send({ operation: 'getPet', method: 'GET', path: `/pets/${someId(ctx)}`, auth: 'key' });
    const problem = statusProblem(
      logged,
      410,
      `the service's clock reads ${new Date(logged.at).toISOString()}, past the removal, so the specification says 410`,
    );
    return problem ? fail(problem, logged) : pass(`410 at ${new Date(logged.at).toISOString()}, after the removal on ${REMOVAL}`);
  },
};
