// The order of checks, written once (docs/reference.md, "Order of checks"): every check a request
// meets, the stateless ones the pipeline judges (core/pipeline/stages.ts) and the stateful ones a
// home of state decides (memory-port.ts in TypeScript, state-redis/home-steps-lua.ts in Lua). Both
// lists are read from this one; a check added here compiles in none of them until each has written it.
// It lives outside core/pipeline so the Redis home, which may not import the pipeline, reads it too.

/**
 * Every check in its order. `stage`: the pipeline judges it, and its failure wins over every later
 * stage's; `home`: a home decides it for a request it counts, in this order:
 * - `removal`: whether a deprecated operation's removal date has passed on the session's clock (the
 *   only place either home judges it; the limit may then not refuse, and the stage answers 410);
 * - `limit`: the request counted against its key's windows (or refused, or its key banned);
 * - `scenario`: for an allowed operation, the scenario's step or chaos draw, which may force its answer;
 * - `refund`: a forced 429 was not served, so the request gives its quota back;
 * - `operation`: the operation run on the store when nothing forced its answer (a declared one counted);
 * - `latency`: the scenario's delay drawn.
 */
export const CHECK_ORDER = [
  { name: 'preflight', stage: true, home: false },
  { name: 'route', stage: true, home: false },
  { name: 'removal', stage: true, home: true },
  { name: 'auth', stage: true, home: false },
  { name: 'limit', stage: true, home: true },
  { name: 'scenario', stage: true, home: true },
  { name: 'refund', stage: false, home: true },
  { name: 'media-type', stage: true, home: false },
  { name: 'body-size', stage: true, home: false },
  { name: 'validation', stage: true, home: false },
  { name: 'operation', stage: true, home: true },
  { name: 'latency', stage: false, home: true },
] as const;

type Check = (typeof CHECK_ORDER)[number];

/** A stage of the pipeline: its failure wins over every later stage's. */
export type StageName = Extract<Check, { stage: true }>['name'];

/** One step of a home's decision. */
export type HomeStep = Extract<Check, { home: true }>['name'];

/** The stages' names in their order. */
export const STAGE_ORDER = CHECK_ORDER.flatMap((c) => (c.stage ? [c.name as StageName] : []));

/** What a home does for a request it counts, in order (the checks marked `home`). */
export const HOME_STEPS = CHECK_ORDER.flatMap((c) => (c.home ? [c.name as HomeStep] : []));
