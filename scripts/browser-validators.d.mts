import type { Plugin as EsbuildPlugin } from 'esbuild';
import type { Plugin as VitePlugin } from 'vite';

/** The generated validator modules by name (`virtual:petstore-mock/...`), made once per process. */
export function validatorModules(): Promise<Record<string, string>>;
/** An esbuild plugin that resolves `virtual:petstore-mock/...` to the generated validators. */
export function esbuildValidators(): EsbuildPlugin;
/** The same for Vite. */
export function viteValidators(): VitePlugin;
/** A schema without the prose no message quotes, as the page's build bundles it. */
export function schemaForPage(schema: unknown): unknown;
/** An esbuild plugin serving the shipped schemas to the page's build through `schemaForPage`. */
export function esbuildPageSchemas(): EsbuildPlugin;
