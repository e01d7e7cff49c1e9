// What one operation of the specification is, apart from its route (which the OpenAPI document
// gives): how it reads its input, what it does to the in-memory store, and how it answers. The
// pipeline, the in-memory home and the answer know operations only through this shape.
import type { Outcome } from '../pipeline/outcome.js';
import type { OperationData } from '../state/state-port.js';
import type { PetStore } from '../state/store.js';
import type { CoreRequest } from '../types.js';

/** One operation of the specification; `I` is its input once read and checked. */
export interface SpecOperationModule<I> {
  /** Whether the operation reads a request body (the others answer before one arrives). */
  readonly readsBody: boolean;
  /** The input from the request and the path parameter's raw text; throws the user's mistake when unusable. */
  parse(req: CoreRequest, param: string | undefined): I;
  /** The in-memory store's part: the data read or written; undefined when nothing was found. */
  run(store: PetStore, input: I): OperationData | undefined;
  /** The answer from the data a home read or wrote (a refusal of the store was thrown before). */
  outcome(input: I, data: OperationData | undefined): Outcome;
}

/**
 * An operation as the table holds it: the input is opaque outside its module, which alone made
 * it (`parse`) and alone reads it back, so forgetting its type here loses nothing.
 */
export function erased<I>(operation: SpecOperationModule<I>): SpecOperationModule<unknown> {
  return operation as SpecOperationModule<unknown>;
}
