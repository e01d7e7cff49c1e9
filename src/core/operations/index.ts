// The specification's operations by operationId: the one place a new operation of the
// specification is registered (its route comes from the OpenAPI document, which a test holds
// to this table). Everything that acts on an operation asks it here.
import { createPet } from './create-pet.js';
import { getPet } from './get-pet.js';
import { listPets } from './list-pets.js';
import { erased, type SpecOperationModule } from './spec-operation.js';

/** Each operation of the specification, its input opaque. */
export const SPEC_MODULES = {
  listPets: erased(listPets),
  createPet: erased(createPet),
  getPet: erased(getPet),
} as const satisfies Record<string, SpecOperationModule<unknown>>;

/** The operations of the specification, as the router names them. */
export type OperationId = keyof typeof SPEC_MODULES;

/** The operationIds of the specification, in the table's order. */
export const OPERATION_IDS = Object.keys(SPEC_MODULES) as OperationId[];
