// The specification's operations by operationId. The registry is written by the build from the
// OpenAPI document's operationIds (scripts/operation-registry.mjs): an operation of the document
// is registered by existing as `<operation-id>.ts` here, and does not compile until it does.
// Everything that acts on an operation asks it here.
import { SPEC_MODULES } from './registry.js';
import type { OperationId } from '../types.js';

export { SPEC_MODULES };

/** The operationIds of the specification, in the table's order. */
export const OPERATION_IDS = Object.keys(SPEC_MODULES) as OperationId[];
