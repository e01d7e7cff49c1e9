// The specification's operations on Redis by operationId: the one place each is registered here.
// Typed by the core's table, so an operation of the specification without its Redis part does
// not compile.
import type { OperationId } from '../../core/types.js';
import { createPet } from './create-pet.js';
import { getPet } from './get-pet.js';
import { listPets } from './list-pets.js';
import { erased, type RedisOperation } from './redis-operation.js';

/** Each operation of the specification on Redis, its input opaque. */
export const REDIS_OPERATIONS: Readonly<Record<OperationId, RedisOperation<unknown>>> = {
  listPets: erased(listPets),
  createPet: erased(createPet),
  getPet: erased(getPet),
};

/** The API script's Lua for the operations: each one's, chosen by the input's `op`. */
export const OPERATIONS_LUA = `${Object.values(REDIS_OPERATIONS)
  .map((o, i) => `${i === 0 ? 'if' : 'elseif'} op == '${o.op}' then${o.lua}`)
  .join('\n      ')}
      end`;
