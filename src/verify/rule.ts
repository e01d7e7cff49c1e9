// What a rule is, what it may know of the run, and the few words every rule judges with.
import type { Client, Logged, Seen } from './client.js';
import { CUT_BODY } from './shape.js';
import type { Exchange, VerifyOptions } from './types.js';

/** The verdict a rule reaches. */
export type Verdict = { kind: 'pass'; message: string } | { kind: 'fail'; message: string; evidence: Exchange[] } | { kind: 'skip'; message: string };

/** An animal as a list or a create showed it: the fields the rules compare. */
type SeenPet = NonNullable<Seen['pet']> & { id: string };

/** What the rules share: the client, the options, and what the first requests learned. */
export interface Context {
  client: Client;
  options: VerifyOptions;
  /** `GET /pets?limit=100` with the key, sent first. */
  probe: Logged;
  /** The animals the probe listed. */
  pets: SeenPet[];
  /** The animal the create rule added, for the get rule to fetch. */
  created?: SeenPet;
  /** Whether the service's clock is past the removal of `GET /pets/{petId}`. */
  removed: boolean;
  /** The 429 that exhausting the quota brought (with `rateLimits`), for the no-ban rule. */
  refusal?: Logged;
}

export interface Rule {
  id: string;
  /** What the rule checks, in a line: the pretty reporter prints it. */
  title: string;
  /** Runs after every other rule: it judges the answers they collected and sends nothing. */
  judgesAll?: boolean;
  run(ctx: Context): Promise<Verdict>;
}

export const pass = (message: string): Verdict => ({ kind: 'pass', message });
export const skip = (message: string): Verdict => ({ kind: 'skip', message });
export const fail = (message: string, ...evidence: Logged[]): Verdict => ({ kind: 'fail', message, evidence: evidence.map((l) => l.exchange) });

/** `GET /v1/pets?limit=0`: the request as a person reads it. */
export function requestLine(logged: Logged): string {
  const url = new URL(logged.exchange.request.url);
  return `${logged.exchange.request.method} ${url.pathname}${url.search}`;
}

/** The status of an answer, or undefined when none came. */
export function statusOf(logged: Logged): number | undefined {
  return logged.exchange.response?.status;
}

/** `GET /v1/pets?limit=0 answered 422` or `... got no answer (ECONNRESET)`. */
export function answered(logged: Logged): string {
  const status = statusOf(logged);
  return status === undefined ? `${requestLine(logged)} got no answer (${logged.exchange.error ?? 'unknown'})` : `${requestLine(logged)} answered ${status}`;
}

/** The problem of an answer whose body verify stopped reading, for a rule that needed the body; or undefined. */
export function cutProblem(logged: Logged): string | undefined {
  return logged.cut ? `${answered(logged)} with ${CUT_BODY}` : undefined;
}

/** The problem of an answer whose status is not `expected`, or undefined. */
export function statusProblem(logged: Logged, expected: number, why: string): string | undefined {
  return statusOf(logged) === expected ? undefined : `${answered(logged)}; ${why}`;
}

/**
 * The first problems among answers, each checked by `check` (given its index too): fails with the
 * answers that show them, passes with `message` when none does.
 */
export function judge(checked: readonly Logged[], check: (logged: Logged, index: number) => string | undefined, message: string): Verdict {
  const found: { logged: Logged; problem: string }[] = [];
  for (const [index, logged] of checked.entries()) {
    const problem = check(logged, index);
    if (problem !== undefined) found.push({ logged, problem });
  }
  if (found.length === 0) return pass(message);
  const shown = found.slice(0, 3);
  const more = found.length > shown.length ? ` (and ${found.length - shown.length} more)` : '';
  return { kind: 'fail', message: shown.map((f) => f.problem).join('; ') + more, evidence: shown.map((f) => f.logged.exchange) };
}

/** The id as text when it is exact: a safe integer (one past 2^53 was rounded in parsing). */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** The animals of a list answer, or undefined when it is not an array. */
export function petsOf(json: unknown): SeenPet[] | undefined {
  if (!Array.isArray(json)) return undefined;
  const pets: SeenPet[] = [];
  for (const item of json as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const pet = item as Record<string, unknown>;
    const id = idText(pet.id);
    if (id !== undefined) pets.push({ id, name: pet.name, categoryId: pet.categoryId, status: pet.status });
  }
  return pets;
}
