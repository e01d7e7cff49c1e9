// An esbuild plugin: a JSON file imported by the code becomes `JSON.parse('…')` of its text rather
// than an object literal. V8 reads a string and parses JSON far faster than it compiles a literal
// of the same size, and every start compiled the two schemas' literals (27 kB of code).
import { readFileSync } from 'node:fs';

export function jsonAsString() {
  return {
    name: 'petstore-mock-json-as-string',
    setup(build) {
      build.onLoad({ filter: /\.json$/ }, ({ path }) => {
        const parsed = `JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(readFileSync(path, 'utf8'))))})`;
        // A package's JSON is required by CommonJS code (Express's tree in the admin part): its exports are the value itself.
        const contents = /[\\/]node_modules[\\/]/.test(path) ? `module.exports = ${parsed};` : `export default ${parsed};`;
        return { contents, loader: 'js' };
      });
    },
  };
}
