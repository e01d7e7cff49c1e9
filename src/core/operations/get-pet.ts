// getPet: GET /v1/pets/{petId}, one animal by its id.
import { MockError } from '../errors.js';
import { parsePetId } from '../input/validation.js';
import { petJson } from '../state/base-data.js';
import type { SpecOperationModule } from './spec-operation.js';

/** A get's input: the id asked for (a bigint past 2^53). */
export interface GetInput {
  id: number | bigint;
}

export const getPet: SpecOperationModule<GetInput> = {
  readsBody: false,
  parse: (_req, param) => ({ id: parsePetId(param ?? '') }),
  run(store, input) {
    const pet = store.get(input.id);
    return pet ? { body: petJson(pet) } : undefined;
  },
  outcome(input, data) {
    if (data === undefined || 'error' in data) {
      throw new MockError('pet_not_found', `No animal has id ${input.id}. List the animals with GET /v1/pets to find a valid id.`);
    }
    return { status: 200, body: data.body, reason: `found animal ${input.id}` };
  },
};
