// The specification's operations by operationId: the one place a new operation of the
// specification is registered. Its route and its id come from the OpenAPI document (types.ts
// reads the ids from it), so an operation the document gains does not compile until it is here.
// Everything that acts on an operation asks it here.
import { createPet } from './create-pet.js';
import { getPet } from './get-pet.js';
import { listPets } from './list-pets.js';
import { erased, type SpecOperationModule } from './spec-operation.js';
import type { OperationId } from '../types.js';

/** Each operation of the specification, its input opaque. */
export const SPEC_MODULES: Readonly<Record<OperationId, SpecOperationModule<unknown>>> = {
  listPets: erased(listPets),
  createPet: erased(createPet),
  getPet: erased(getPet),
};

/** The operationIds of the specification, in the table's order. */
export const OPERATION_IDS = Object.keys(SPEC_MODULES) as OperationId[];
