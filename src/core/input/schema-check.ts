/**
 * A JSON Schema (draft-07) checker for the project's own schemas (scenario files, snapshots) that
 * reads the schema as data instead of compiling it into code: nothing waits for a compile on the
 * first scenario object or restore, a page needs no 'unsafe-eval', and the browser build carries
 * the schema (a few kB) instead of generated code (about 100 kB).
 *
 * It gives Ajv's errors, field for field and in Ajv's order, for the keywords our schemas use
 * (Ajv with `allErrors` and `verbose`), so the messages built from them (schema-errors.ts) are the
 * same wherever a document is checked; test/core/schema-check.test.ts holds the two equal. A
 * keyword it does not know is refused when the checker is made, so a schema cannot silently
 * outgrow it.
 */

import { named } from '../errors.js';

/** One mistake, shaped as Ajv's `ErrorObject` (which fits it too); with `verbose`, every field is there. */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  schema?: unknown;
  parentSchema?: unknown;
  data?: unknown;
  propertyName?: string;
}

type Schema = { readonly [keyword: string]: unknown };

/** Keywords that only describe: no check reads them. */
const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', 'definitions', 'examples', 'default', '$comment']);
/** Ajv's groups, in the order it checks them: untyped keywords first, then one group per type. */
const UNTYPED = ['$ref', 'const', 'enum', 'oneOf'];
const GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ['number', ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'format']],
  ['string', ['maxLength', 'minLength', 'pattern']],
  ['array', ['maxItems', 'minItems', 'items']],
  ['object', ['required', 'propertyNames', 'additionalProperties', 'properties']],
];
const KNOWN = new Set([...ANNOTATIONS, 'type', 'components', ...UNTYPED, ...GROUPS.flatMap(([, keywords]) => keywords)]);
const LIMITS: Readonly<Record<string, readonly [string, (a: number, b: number) => boolean]>> = {
  maximum: ['<=', (a, b) => a <= b],
  minimum: ['>=', (a, b) => a >= b],
  exclusiveMaximum: ['<', (a, b) => a < b],
  exclusiveMinimum: ['>', (a, b) => a > b],
};

const unescape = (part: string): string => part.replace(/~1/g, '/').replace(/~0/g, '~');

/** An error's `instancePath` as keys and indexes from the top. */
export function pathOf(instancePath: string): (string | number)[] {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : unescape(part)));
}

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const pointer = (key: string | number): string =>
  typeof key === 'number' ? `/${key}` : /[~/]/.test(key) ? `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` : `/${key}`;

const TYPES: ReadonlyMap<string, (data: unknown) => boolean> = new Map([
  ['object', isObject],
  ['array', Array.isArray],
  ['null', (data: unknown) => data === null],
  // As Ajv (strictNumbers): NaN and the infinities (YAML's .nan and .inf) are no numbers.
  ['number', Number.isFinite],
  ['integer', Number.isInteger],
]);
const isType = (type: string, data: unknown): boolean => TYPES.get(type)?.(data) ?? typeof data === type;

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return a !== a && b !== b;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && equal((a as Schema)[key], (b as Schema)[key]));
}

/** Whether a schema holds a `$ref` anywhere: Ajv inlines a referenced schema only when it holds none. */
function holdsRef(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(holdsRef);
  if (!isObject(schema)) return false;
  let holds = refHolders.get(schema);
  if (holds === undefined) refHolders.set(schema, (holds = Object.entries(schema).some(([key, value]) => key === '$ref' || holdsRef(value))));
  return holds;
}
/** Schemas are not changed once a checker reads them: what each holds is worked out once. */
const refHolders = new WeakMap<Schema, boolean>();

/** Every keyword of every subschema is one this checker knows, and every format one it was given. */
function checkKeywords(schema: unknown, at: string, formats: Formats): void {
  if (typeof schema === 'boolean') return;
  if (!isObject(schema)) throw new Error(named(`the schema at ${at} is not an object`));
  for (const [keyword, value] of Object.entries(schema)) {
    if (!KNOWN.has(keyword))
      throw new Error(named(`the schema keyword ${keyword} (at ${at}) is not one the schema checker knows; add it to src/core/input/schema-check.ts`));
    if (keyword === 'format' && !Object.hasOwn(formats, value as string))
      throw new Error(named(`the format ${String(value)} (at ${at}) is not one the schema checker was given`));
    // An OpenAPI document's schemas sit under components.schemas, where its references point.
    if (keyword === 'components') checkKeywords({ definitions: (value as { schemas?: Schema }).schemas ?? {} }, `${at}/components`, formats);
    else if (keyword === 'properties' || keyword === 'definitions')
      for (const [name, sub] of Object.entries(value as Schema)) checkKeywords(sub, `${at}/${keyword}/${name}`, formats);
    else if (keyword === 'oneOf') (value as unknown[]).forEach((sub, i) => checkKeywords(sub, `${at}/oneOf/${i}`, formats));
    else if (['items', 'additionalProperties', 'propertyNames'].includes(keyword)) checkKeywords(value, `${at}/${keyword}`, formats);
  }
}

/** What a check of a schema reads, worked out once per schema: schemas are not changed once read. */
interface Shape {
  /** Only a `$ref` (and annotations): the referenced schema is checked in its place. */
  refOnly: boolean;
  types: readonly string[];
  /** A lone type whose group of keywords the schema uses is reported in that group's place. */
  typeLater: boolean;
  /** The untyped keywords the schema has, in Ajv's order. */
  untyped: readonly string[];
  /** The groups the schema has keywords of, with those keywords, in Ajv's order. */
  groups: readonly (readonly [string, readonly string[]])[];
}

function shapeOf(schema: Schema): Shape {
  let shape = shapes.get(schema);
  if (shape === undefined) {
    const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const groups = GROUPS.map(([type, keywords]) => [type, keywords.filter((keyword) => keyword in schema)] as const).filter(([, used]) => used.length > 0);
    shape = {
      refOnly: schema.$ref !== undefined && Object.keys(schema).every((key) => key === '$ref' || ANNOTATIONS.has(key)),
      types,
      typeLater: types.length === 1 && groups.some(([type]) => type === types[0]),
      untyped: UNTYPED.filter((keyword) => keyword in schema),
      groups,
    };
    shapes.set(schema, shape);
  }
  return shape;
}
const shapes = new WeakMap<Schema, Shape>();

/** Number formats by name: whether a number (finite) is of the format. */
export type Formats = Readonly<Record<string, (value: number) => boolean>>;

/**
 * A checker for one schema: its errors for a document, none when the document fits. `others` are
 * the schemas its `$ref`s may name by `$id` (the snapshot's schema refers to the scenario's; the
 * OpenAPI document's, with its `components`, is one too); `formats` the number formats they use.
 */
export function schemaChecker(root: Schema, others: readonly Schema[] = [], formats: Formats = {}): (data: unknown) => SchemaError[] {
  for (const schema of [root, ...others]) checkKeywords(schema, String(schema.$id ?? '#'), formats);
  const byId = new Map(others.map((schema) => [String(schema.$id), schema]));
  /** The schema a reference names, and the root its own local references resolve against. */
  const resolved = new Map<Schema, Map<string, [Schema | boolean, Schema]>>();
  const resolve = (ref: string, base: Schema): [Schema | boolean, Schema] => {
    let known = resolved.get(base);
    if (known === undefined) resolved.set(base, (known = new Map()));
    let found = known.get(ref);
    if (found === undefined) known.set(ref, (found = resolveOnce(ref, base)));
    return found;
  };
  const resolveOnce = (ref: string, base: Schema): [Schema | boolean, Schema] => {
    const hash = ref.indexOf('#');
    const id = hash === -1 ? ref : ref.slice(0, hash);
    const resource = id === '' || id === base.$id ? base : byId.get(id);
    let at: unknown = resource;
    for (const part of (hash === -1 ? '' : ref.slice(hash + 1)).split('/').slice(1)) at = isObject(at) ? at[unescape(part)] : undefined;
    if (!resource || (!isObject(at) && typeof at !== 'boolean')) throw new Error(named(`the schema reference ${ref} leads nowhere`));
    return [at, resource];
  };

  return (document) => {
    const errors: SchemaError[] = [];
    const check = (schema: Schema | boolean, data: unknown, path: string, schemaPath: string, base: Schema, propertyName?: string): boolean => {
      const before = errors.length;
      const fail = (
        keyword: string,
        params: Record<string, unknown>,
        message: string,
        value: unknown = schema === false ? false : (schema as Schema)[keyword],
      ): void => {
        const error: SchemaError = {
          instancePath: path,
          schemaPath: keyword === 'false schema' ? schemaPath : `${schemaPath}/${keyword}`,
          keyword,
          params,
          message,
          schema: value,
          parentSchema: schema,
          data,
        };
        if (propertyName !== undefined) error.propertyName = propertyName;
        errors.push(error);
      };
      if (schema === true) return true;
      if (schema === false) {
        fail('false schema', {}, 'boolean schema is false');
        return false;
      }
      const sub = (child: Schema | boolean, value: unknown, childPath: string, childSchemaPath: string, name?: string): boolean =>
        check(child, value, childPath, childSchemaPath, base, name ?? propertyName);
      const ref = (): void => {
        const [target, resource] = resolve(schema.$ref as string, base);
        // Ajv inlines a schema without references (its errors keep the reference's path) and calls
        // one with references as a function of its own, whose errors' paths start again at '#'.
        check(target, data, path, holdsRef(target) ? '#' : (schema.$ref as string), resource, propertyName);
      };
      const shape = shapeOf(schema);
      if (shape.refOnly) {
        ref();
        return errors.length === before;
      }
      const { types, typeLater } = shape;
      const typeError = (): void => fail('type', { type: schema.type }, `must be ${String(schema.type)}`);
      if (types.length > 0 && !typeLater && !types.some((type) => isType(type, data))) typeError();

      for (const keyword of shape.untyped) {
        const value = schema[keyword];
        if (keyword === '$ref') ref();
        else if (keyword === 'const' && !equal(data, value)) fail('const', { allowedValue: value }, 'must be equal to constant');
        else if (keyword === 'enum' && !(value as unknown[]).some((allowed) => equal(data, allowed)))
          fail('enum', { allowedValues: value }, 'must be equal to one of the allowed values');
        else if (keyword === 'oneOf') {
          const start = errors.length;
          let valid = false;
          let passing: number | number[] | null = null;
          (value as (Schema | boolean)[]).forEach((branch, i) => {
            const fits = sub(branch, data, path, `${schemaPath}/oneOf/${i}`);
            if (i > 0 && fits && valid) {
              valid = false;
              passing = [passing as number, i];
            } else if (fits) {
              valid = true;
              passing = i;
            }
          });
          if (valid) errors.length = start;
          else fail('oneOf', { passingSchemas: passing }, 'must match exactly one schema in oneOf');
        }
      }

      for (const [type, keywords] of shape.groups) {
        if (!isType(type, data)) {
          if (typeLater && types[0] === type) typeError();
          continue;
        }
        for (const keyword of keywords) {
          const value = schema[keyword];
          const limit = LIMITS[keyword];
          if (keyword === 'format') {
            if (!(formats[value as string] as (value: number) => boolean)(data as number))
              fail('format', { format: value }, `must match format "${String(value)}"`);
          } else if (limit) {
            if (!limit[1](data as number, value as number)) fail(keyword, { comparison: limit[0], limit: value }, `must be ${limit[0]} ${String(value)}`);
          } else if (keyword === 'maxLength' || keyword === 'minLength' || keyword === 'maxItems' || keyword === 'minItems') {
            const more = keyword.startsWith('max');
            const items = keyword.endsWith('Items');
            // A string's length is counted in code points, as Ajv counts it.
            const length = items ? (data as unknown[]).length : [...(data as string)].length;
            if (more ? length > (value as number) : length < (value as number))
              fail(keyword, { limit: value }, `must NOT have ${more ? 'more' : 'fewer'} than ${String(value)} ${items ? 'items' : 'characters'}`);
          } else if (keyword === 'pattern') {
            if (!new RegExp(value as string, 'u').test(data as string)) fail('pattern', { pattern: value }, `must match pattern "${String(value)}"`);
          } else if (keyword === 'items') {
            (data as unknown[]).forEach((item, i) => sub(value as Schema, item, path + pointer(i), `${schemaPath}/items`));
          } else if (keyword === 'required') {
            for (const name of value as string[])
              if ((data as Schema)[name] === undefined) fail('required', { missingProperty: name }, `must have required property '${name}'`);
          } else if (keyword === 'propertyNames') {
            for (const key in data as Schema) {
              if (!sub(value as Schema, key, path, `${schemaPath}/propertyNames`, key))
                fail('propertyNames', { propertyName: key }, 'property name must be valid');
            }
          } else if (keyword === 'additionalProperties') {
            const known = isObject(schema.properties) ? schema.properties : {};
            for (const key in data as Schema) {
              if (Object.prototype.hasOwnProperty.call(known, key)) continue;
              if (value === false) fail('additionalProperties', { additionalProperty: key }, 'must NOT have additional properties');
              else sub(value as Schema, (data as Schema)[key], path + pointer(key), `${schemaPath}/additionalProperties`);
            }
          } else if (keyword === 'properties') {
            for (const [name, child] of Object.entries(value as Schema)) {
              if ((data as Schema)[name] !== undefined)
                sub(child as Schema, (data as Schema)[name], path + pointer(name), `${schemaPath}/properties${pointer(name)}`);
            }
          }
        }
      }
      return errors.length === before;
    };
    check(root, document, '', '#', root);
    return errors;
  };
}
