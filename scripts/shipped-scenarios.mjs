// The shipped scenarios as objects, for the browser build (which reads no files): each file's
// content, named as the server names it (its `name`, or the file name without extension).
import { readFileSync, readdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parse } from 'yaml';

export function shippedScenarioObjects(dir = 'scenarios') {
  return readdirSync(dir)
    .filter((file) => /\.(ya?ml|json)$/i.test(file) && !file.endsWith('.schema.json'))
    .sort()
    .map((file) => {
      const spec = parse(readFileSync(join(dir, file), 'utf8'));
      // `$schema` only points editors at the schema file; objects do not carry it.
      delete spec.$schema;
      return { ...spec, name: spec.name ?? basename(file, extname(file)) };
    });
}
