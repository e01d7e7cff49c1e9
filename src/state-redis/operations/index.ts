// The specification's operations on Redis by operationId. The registry is written by the build
// from the OpenAPI document (scripts/operation-registry.mjs), typed by the core's table, so an
// operation of the specification without its Redis module here does not compile.
import { REDIS_OPERATIONS } from './registry.js';

export { REDIS_OPERATIONS };

/** The API script's Lua for the operations: each one's, chosen by the input's `op`. */
export const OPERATIONS_LUA = `${Object.values(REDIS_OPERATIONS)
  .map((o, i) => `${i === 0 ? 'if' : 'elseif'} op == '${o.op}' then${o.lua}`)
  .join('\n      ')}
      end`;
