// The scripts as one Redis 7 function library: its shared helpers (lua-library.ts) are defined
// once, when the library is loaded, rather than again on every call as an EVAL script must. The
// library's and functions' names carry a digest of the code, so deployments of different
// versions can share one Redis without replacing each other's functions.
import { createHash } from 'node:crypto';
import { LIBRARY_BODY } from './lua-library.js';

/** A function library ready for FUNCTION LOAD, and the function name of each script. */
export interface FunctionLibrary {
  code: string;
  functions: Record<string, string>;
}

/** Every script as a function of one library, run after the shared helpers; a script keeps reading its arguments as ARGV. */
export function functionLibrary(scripts: Record<string, string>): FunctionLibrary {
  const entries = Object.entries(scripts);
  const digest = createHash('sha1').update(LIBRARY_BODY).update(JSON.stringify(entries)).digest('hex').slice(0, 12);
  const functions = Object.fromEntries(entries.map(([name]) => [name, `${name}_${digest}`]));
  const registered = entries.map(
    ([name, lua]) => `redis.register_function('${functions[name]}', function(keys, args)\nKEYS = keys\nARGV = args\nP = args[1]\nDECL = nil\n${lua}\nend)`,
  );
  return { code: `#!lua name=petstore_mock_${digest}\nlocal P, ARGV, KEYS, DECL\n${LIBRARY_BODY}\n${registered.join('\n')}\n`, functions };
}
