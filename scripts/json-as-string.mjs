// An esbuild plugin: a JSON file imported by the code becomes `JSON.parse('…')` of its text rather
// than an object literal. V8 reads a string and parses JSON far faster than it compiles a literal
// of the same size, and every start compiled the two schemas' literals (27 kB of code).
import { readFileSync } from 'node:fs';

export function jsonAsString() {
  return {
    name: 'petstore-mock-json-as-string',
    setup(build) {
      build.onLoad({ filter: /\.json$/ }, ({ path }) => ({
        contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(readFileSync(path, 'utf8'))))});`,
        loader: 'js',
      }));
    },
  };
}
