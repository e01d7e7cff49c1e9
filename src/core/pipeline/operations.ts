import { readJsonBody } from '../input/body.js';
import { MockError } from '../errors.js';
import { petJson } from '../state/store.js';
import type { CoreRequest, PetStatus } from '../types.js';
import { parseListQuery, parsePetId, validateNewPet } from '../input/validation.js';
import type { OperationId, World } from '../state/world.js';

/** The result of an operation that succeeded. */
export interface OperationResult {
  status: number;
  body: string;
  headers?: Record<string, string>;
  reason: string;
}

const listReasons = new Map<string, string>();

/** The journal's reason for a list; there are only a few hundred, so each is built once. */
function listReason(limit: number, status: PetStatus | undefined): string {
  const key = `${status ?? ''}${limit}`;
  let reason = listReasons.get(key);
  if (reason === undefined) {
    reason = `listed animals (limit ${limit}${status ? `, status ${status}` : ''})`;
    listReasons.set(key, reason);
  }
  return reason;
}

/** Runs one of the three operations of the specification; failures are thrown as MockError. */
export function runOperation(operation: OperationId, world: World, req: CoreRequest, petId?: string): OperationResult {
  switch (operation) {
    case 'listPets': {
      const query = parseListQuery(req.query);
      const body = world.store.listBody(query.limit, query.status);
      return { status: 200, body, reason: listReason(query.limit, query.status) };
    }
    case 'createPet': {
      const parsed = readJsonBody(req.headers, req.body, req.bodyTooLarge === true);
      const input = validateNewPet(parsed.value, parsed.hasBigInt);
      const pet = world.store.create(input);
      return { status: 201, body: petJson(pet), headers: { Location: `/v1/pets/${pet.id}` }, reason: `created animal ${pet.id}` };
    }
    case 'getPet': {
      const id = parsePetId(petId ?? '');
      const pet = world.store.get(id);
      if (!pet) throw new MockError('pet_not_found', `No animal has id ${id}. List the animals with GET /v1/pets to find a valid id.`);
      return { status: 200, body: petJson(pet), reason: `found animal ${pet.id}` };
    }
  }
}
