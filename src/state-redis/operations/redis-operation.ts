// What one operation of the specification is on the Redis home: the fields it adds to the API
// script's input, the Lua the script runs for it, and its data read back in the core's terms. The
// twin of its core module's `run` (core/operations), which the differential test holds it to.
import type { PetStore } from '../../core/state/store.js';
import type { OperationData } from '../../core/state/state-port.js';
import type { SessionSettings } from '../../core/state/session-state.js';
import type { DecideInput } from '../api-input.js';

/** What the answer needs besides the script's fields: the base's part of a list, a create's tail, an animal of the base. */
export interface Local {
  inBase?: number;
  tail?: string;
  found?: string;
  /** A get of an id past the base: the script reads it. */
  pending?: boolean;
}

/** What the script answered for an operation (part of redis-plan.ts's `Decided`): an operation's new answer field goes here. */
export interface ScriptData {
  /** What the operation read or wrote: created animals, one animal, or the new id. */
  data?: string | string[] | Record<string, never> | false;
  /** Why a create found no room: no id left, or the session's bounds. */
  full?: 'id' | 'room';
  /** The ids the session removed (its field `rm`, removed-field.ts), for a list. */
  gone?: string;
}

/**
 * An operation's fields of the script's input, added to the core's (api-input.ts's `DecideInput`):
 * names of its own, never one of the core's but `op`, which names the operation.
 */
export type OperationFields = Readonly<Record<string, string | number>> & { readonly [K in Exclude<keyof DecideInput, 'op'>]?: never };

/** One operation on Redis; `I` is its input as its core module read it. */
export interface RedisOperation<I> {
  /** The script's name of the operation (the input's `op`); its Lua runs only when `fields` sets it. */
  readonly op: string;
  /**
   * Lua run in the API script for an allowed request no scenario forced, with `op` set to this
   * one's. In scope: `q` (the input), `c` and `mk` (the session and its key), `sid`, `out` (set
   * `out.data` and `out.gone`, or `out.full` for a refusal), `s`, `put`, `push` and `pushNow` (api-script.ts).
   */
  readonly lua: string;
  /**
   * The operation's fields of the script's input, `op` among them when the script must read or
   * write (undefined when the answer is known here); notes in `local` what the answer needs besides.
   * A field that holds '', 0 or false is not sent (api-input.ts): its Lua reads it with a default.
   */
  fields(input: I, s: SessionSettings, baseStore: PetStore, local: Local): OperationFields | undefined;
  /** What the operation read or wrote, from the script's answer and `local`. */
  dataOf(input: I, s: SessionSettings, d: ScriptData, local: Local): OperationData | undefined;
}

/** An operation as the registry holds it: its input is made and read back only by its own modules. */
export function erased<I>(operation: RedisOperation<I>): RedisOperation<unknown> {
  return operation as RedisOperation<unknown>;
}
