// Node's checks of scenario files, scenario objects and snapshots: code generated at build time
// from scenarios/*.schema.json (scripts/browser-validators.mjs writes dist/object-validators.cjs;
// the test config writes the same beside this file), required on first use. Nothing is compiled at
// run time, so no request waits for a schema (the first scenario object or snapshot used to stall
// the process 0.35-1.7 s), and neither a start nor the library's import loads them or Ajv.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { named } from '../core/errors.js';

/** The generated file's name, found from this module's folder upwards (src/files/ in tests, dist/ from dist/chunks/ or dist/cjs/). */
export const OBJECT_VALIDATORS_FILE = 'object-validators.cjs';

/** The two checks, with the options scenario files have always been checked with (every error, with the values). */
export interface ObjectValidators {
  validateScenario: ValidateFunction;
  validateSnapshot: ValidateFunction;
}

let loaded: ObjectValidators | undefined;

/** The generated checks, required once, synchronously, on first use. */
export function objectValidators(): ObjectValidators {
  if (loaded) return loaded;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, OBJECT_VALIDATORS_FILE);
    if (existsSync(file)) return (loaded = createRequire(import.meta.url)(file) as ObjectValidators);
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(named(`the generated schema checks (${OBJECT_VALIDATORS_FILE}) are missing; reinstall petstore-mock, or run npm run build.`));
    dir = parent;
  }
}
