// The scripts as one Redis 7 function library: its shared helpers (lua-library.ts) are defined
// once, when the library is loaded, rather than again on every call as an EVAL script must. The
// library's and functions' names carry a digest of the code, so deployments of different
// versions can share one Redis without replacing each other's functions.
import { createHash } from 'node:crypto';
import { LIBRARY, LIBRARY_BODY } from './lua-library.js';

/** One script: its Lua, and whether it runs after the shared helpers. */
export interface LuaScript {
  lua: string;
  shared: boolean;
}

/** A function library ready for FUNCTION LOAD, and the function name of each script. */
export interface FunctionLibrary {
  code: string;
  functions: Record<string, string>;
}

/** The script as EVAL runs it (Redis before 7, or a user not allowed to load functions). */
export function evalText(script: LuaScript): string {
  return script.shared ? `${LIBRARY}${script.lua}` : script.lua;
}

/** Every script as a function of one library; a script keeps reading its arguments as ARGV. */
export function functionLibrary(scripts: Record<string, LuaScript>): FunctionLibrary {
  const entries = Object.entries(scripts);
  const digest = createHash('sha1').update(LIBRARY_BODY).update(JSON.stringify(entries)).digest('hex').slice(0, 12);
  const functions = Object.fromEntries(entries.map(([name]) => [name, `${name}_${digest}`]));
  const registered = entries.map(([name, script]) =>
    script.shared
      ? `redis.register_function('${functions[name]}', function(keys, args)\nKEYS = keys\nARGV = args\nP = args[1]\nDECL = nil\n${script.lua}\nend)`
      : `redis.register_function('${functions[name]}', function(KEYS, ARGV)\n${script.lua}\nend)`,
  );
  return { code: `#!lua name=petstore_mock_${digest}\nlocal P, ARGV, KEYS, DECL\n${LIBRARY_BODY}\n${registered.join('\n')}\n`, functions };
}
