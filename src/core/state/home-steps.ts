// The stateful half of the order of checks, as one list. The pipeline's stages
// (core/pipeline/stages.ts) judge what a home decided; this list is the order a home decides it in,
// for a request it counts. Each home writes each step once, under its name: memory-port.ts in
// TypeScript, state-redis/home-steps-lua.ts in Lua, and both walk this list. A step added here
// compiles in neither home until both have written it; test/core/home-steps.test.ts keeps the
// steps that are stages in the stage list's order.

/**
 * What a home does for a request it counts, in order:
 * - `removal`: whether a deprecated operation's removal date has passed on the session's clock (the
 *   only place either home judges it; the limit may then not refuse, and the 'removal' stage answers 410);
 * - `limit`: the request counted against its key's windows (or refused, or its key banned);
 * - `scenario`: for an allowed operation, the scenario's step or chaos draw, which may force its answer;
 * - `refund`: a forced 429 was not served, so the request gives its quota back;
 * - `operation`: the operation run on the store when nothing forced its answer (a declared one counted);
 * - `latency`: the scenario's delay drawn.
 */
export const HOME_STEPS = ['removal', 'limit', 'scenario', 'refund', 'operation', 'latency'] as const;

/** One step of a home's decision. */
export type HomeStep = (typeof HOME_STEPS)[number];
