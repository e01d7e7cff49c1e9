// createPet: POST /v1/pets, an animal added to the session's store.
import { MockError } from '../errors.js';
import { readJsonBody } from '../input/body.js';
import { validateNewPet, type NewPetInput } from '../input/validation.js';
import { petJson } from '../state/base-data.js';
import type { SpecOperationModule } from './spec-operation.js';

export const createPet: SpecOperationModule<NewPetInput> = {
  readsBody: true,
  parse(req) {
    const parsed = readJsonBody(req.headers, req.body, req.bodyTooLarge === true);
    return validateNewPet(parsed.value, parsed.hasBigInt);
  },
  run(store, input) {
    try {
      const pet = store.create(input);
      return { body: petJson(pet), createdId: String(pet.id) };
    } catch (error) {
      // A full store is the client's answer (a 507), not a failure of the home.
      if (error instanceof MockError) return { error };
      throw error;
    }
  },
  outcome(_input, data) {
    if (data === undefined || 'error' in data || data.createdId === undefined) {
      throw new Error('unreachable: a home answers every create with an id or a refusal');
    }
    return { status: 201, body: data.body, headers: { Location: `/v1/pets/${data.createdId}` }, reason: `created animal ${data.createdId}` };
  },
};
