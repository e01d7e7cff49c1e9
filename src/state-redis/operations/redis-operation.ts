// What one operation of the specification is on the Redis home: the fields it adds to the API
// script's input, the Lua the script runs for it, and its data read back in the core's terms. The
// twin of its core module's `run` (core/operations), which the differential test holds it to.
import type { PetStore } from '../../core/state/store.js';
import type { OperationData } from '../../core/state/state-port.js';
import type { SessionSettings } from '../../core/state/session-state.js';
import type { DecideInput } from '../api-input.js';

/** What the answer needs besides the script's: the base's part of a list, a create's tail, an animal of the base or one the script reads. */
export interface Local {
  inBase?: number;
  tail?: string;
  found?: string;
  pending?: boolean;
}

/** What the script answered for an operation (part of redis-plan.ts's `Decided`): read or written `data`, why a create found no room, a list's removed ids. */
export interface ScriptData {
  data?: string | string[] | Record<string, never> | false;
  full?: 'id' | 'room';
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
   * Lua run in the API script for an allowed request no scenario forced. In scope: `q` (the
   * input), `c` and `mk` (the session and its key), `sid`, `out`, `s`, `put`, `push` and `pushNow`.
   */
  readonly lua: string;
  /**
   * The operation's fields of the script's input, `op` among them when the script must read or
   * write (undefined when the answer is known here); notes in `local` what the answer needs besides.
   * A field that holds '', 0 or false is not sent: its Lua reads it with a default.
   */
  fields(input: I, s: SessionSettings, baseStore: PetStore, local: Local): OperationFields | undefined;
  /** What the operation read or wrote, from the script's answer and `local`. */
  dataOf(input: I, s: SessionSettings, d: ScriptData, local: Local): OperationData | undefined;
}

/** An operation as the registry holds it: its input is made and read back only by its own modules. */
export function erased<I>(operation: RedisOperation<I>): RedisOperation<unknown> {
  return operation as RedisOperation<unknown>;
}
