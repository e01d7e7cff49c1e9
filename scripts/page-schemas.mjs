// The shipped JSON Schemas (scenarios/*.schema.json) as the page's build bundles them: the schema
// checker (src/core/input/schema-check.ts) reads them as data, in Node and in a page alike, so
// nothing is compiled or generated; the page's copy drops the prose no message quotes.

/**
 * A schema as the page needs it: the descriptions messages quote (a oneOf's or a pattern's, see
 * src/core/scenarios/schema-errors.ts) kept, every other description and title dropped. The
 * scenario schema is half prose, and the page carries it whole otherwise.
 */
export function schemaForPage(schema) {
  if (Array.isArray(schema)) return schema.map(schemaForPage);
  if (schema === null || typeof schema !== 'object') return schema;
  const kept = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'title' || keyword === '$comment' || keyword === 'examples') continue;
    if (keyword === 'description' && !('oneOf' in schema || 'pattern' in schema)) continue;
    if (keyword === 'properties' || keyword === 'definitions')
      kept[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, schemaForPage(sub)]));
    else if (keyword === 'enum' || keyword === 'const' || keyword === 'required' || keyword === 'default') kept[keyword] = value;
    else kept[keyword] = schemaForPage(value);
  }
  return kept;
}

/** An esbuild plugin for the page's build: the shipped JSON Schemas, through `schemaForPage`. */
export function esbuildPageSchemas() {
  return {
    name: 'petstore-mock-page-schemas',
    setup(b) {
      b.onLoad({ filter: /scenarios[\\/][a-z]+\.schema\.json$/ }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        return { contents: JSON.stringify(schemaForPage(JSON.parse(await readFile(args.path, 'utf8')))), loader: 'json' };
      });
    },
  };
}
