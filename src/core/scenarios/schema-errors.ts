// Turns a schema's errors about a scenario into one mistake a person can fix: a place and a sentence.
import { pathOf, type SchemaError as ErrorObject } from '../input/schema-check.js';

type Path = readonly (string | number)[];

/**
 * Drops the errors of a oneOf's shapes that the value plainly is not (a required key missing, a
 * different type or constant, or a key's value another shape takes: `{ status: 503, foo: 1 }` is
 * no success), when some other shape fits that well: `{ status: 418 }` is a forced status that is
 * not allowed, not a fault with an unknown key "status".
 */
export function narrowOneOf(errors: readonly ErrorObject[]): readonly ErrorObject[] {
  let kept = errors;
  for (const oneOf of errors.filter((e) => e.keyword === 'oneOf')) {
    const prefix = `${oneOf.schemaPath}/`;
    const shapes = new Map<string, ErrorObject[]>();
    for (const e of kept) {
      if (!e.schemaPath.startsWith(prefix)) continue;
      const shape = e.schemaPath.slice(prefix.length).split('/')[0] ?? '';
      shapes.set(shape, [...(shapes.get(shape) ?? []), e]);
    }
    const here = (e: ErrorObject): boolean => e.instancePath === oneOf.instancePath;
    const plainlyNot = (list: ErrorObject[]): boolean => list.some((e) => here(e) && ['required', 'type', 'const'].includes(e.keyword));
    const candidates = [...shapes.values()].filter((list) => !plainlyNot(list));
    const keyOf = (e: ErrorObject): boolean =>
      e.instancePath.startsWith(`${oneOf.instancePath}/`) && !e.instancePath.slice(oneOf.instancePath.length + 1).includes('/');
    const takenElsewhere = (list: ErrorObject[], e: ErrorObject): boolean =>
      candidates.some((other) => other !== list && !other.some((o) => o.instancePath === e.instancePath));
    const wrongShape = (list: ErrorObject[]): boolean =>
      plainlyNot(list) || list.some((e) => keyOf(e) && (e.keyword === 'enum' || e.keyword === 'const') && takenElsewhere(list, e));
    const ruledOut = [...shapes.values()].filter(wrongShape);
    const left = [...shapes.values()].filter((list) => !wrongShape(list));
    // A shape whose mistake is the value itself (a pattern) is better told by the oneOf's description.
    if (ruledOut.length === 0 || left.length === 0 || left.some((list) => list.some((e) => here(e) && e.keyword !== 'additionalProperties'))) continue;
    const dropped = new Set([oneOf, ...ruledOut.flat()]);
    kept = kept.filter((e) => !dropped.has(e));
  }
  return kept;
}

/** The most useful of Ajv's errors, as a path into the document and a sentence. */
export function pickError(all: readonly ErrorObject[]): { path: Path; message: string } | undefined {
  const errors = narrowOneOf(all);
  const depth = (e: ErrorObject): number => (e.instancePath === '' ? 0 : e.instancePath.split('/').length - 1);
  const [deepest] = [...errors].sort((a, b) => depth(b) - depth(a));
  if (deepest === undefined) return undefined;
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  const chosen = unknown && depth(unknown) >= depth(deepest) - 1 ? unknown : deepest;
  const path = pathOf(chosen.instancePath);
  const where =
    path.length === 0
      ? 'the scenario'
      : path
          .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
          .join('')
          .replace(/^\./, '');
  if (chosen.keyword === 'additionalProperties') {
    const key = String((chosen.params as { additionalProperty: string }).additionalProperty);
    const allowed = Object.keys((chosen.parentSchema as { properties?: object } | undefined)?.properties ?? {}).filter((k) => k !== '$schema');
    return { path: [...path, key], message: `unknown key ${JSON.stringify(key)} in ${where}; the keys there are ${allowed.join(', ')}` };
  }
  const atSamePlace = errors.filter((e) => e.instancePath === chosen.instancePath);
  const missing = atSamePlace.find((e) => e.keyword === 'required');
  if (missing) return { path, message: `${where} needs the key ${JSON.stringify((missing.params as { missingProperty: string }).missingProperty)}` };
  // A value that fits none of a oneOf's shapes is best explained by the shape's own description;
  // Ajv reports the outermost oneOf last.
  const oneOf = atSamePlace.filter((e) => e.keyword === 'oneOf').pop();
  const described = (oneOf?.parentSchema as { description?: string } | undefined)?.description;
  if (oneOf && described) return { path, message: `${where} is not valid: ${lowerFirst(described)}` };
  if (chosen.keyword === 'type') {
    const type = String((chosen.params as { type: string }).type);
    return { path, message: `${where} must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}` };
  }
  if (chosen.keyword === 'enum') {
    // Every shape's values for this place: a status 418 is told of the success statuses too.
    const values = new Set(
      all
        .filter((e) => e.keyword === 'enum' && e.instancePath === chosen.instancePath)
        .flatMap((e) => (e.params as { allowedValues: unknown[] }).allowedValues),
    );
    const sorted = [...values].every((v) => typeof v === 'number') ? [...values].sort((x, y) => Number(x) - Number(y)) : [...values];
    const allowed = sorted.map((v) => JSON.stringify(v)).join(', ');
    // The value given is there when Ajv runs verbose, as both loaders do.
    const given = chosen.data === undefined ? '' : ` is ${JSON.stringify(chosen.data)}, which is not allowed there;`;
    return { path, message: given ? `${where}${given} use one of ${allowed}` : `${where} must be one of ${allowed}` };
  }
  if (chosen.keyword === 'pattern') {
    const description = (chosen.parentSchema as { description?: string } | undefined)?.description;
    return {
      path,
      message: `${where} is not valid${description ? `: ${lowerFirst(description)}` : ` (must match ${(chosen.params as { pattern: string }).pattern})`}`,
    };
  }
  return { path, message: `${where} ${chosen.message ?? 'is not valid'}` };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1).replace(/\.$/, '');
}
