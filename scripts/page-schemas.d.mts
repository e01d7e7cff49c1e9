import type { Plugin as EsbuildPlugin } from 'esbuild';

/** A schema without the prose no message quotes, as the page's build bundles it. */
export function schemaForPage(schema: unknown): unknown;
/** An esbuild plugin serving the shipped schemas to the page's build through `schemaForPage`. */
export function esbuildPageSchemas(): EsbuildPlugin;
