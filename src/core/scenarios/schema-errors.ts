// Turns Ajv's errors about a scenario into one mistake a person can fix: a place and a sentence.
import type { ErrorObject } from 'ajv';

type Path = readonly (string | number)[];

/** The most useful of Ajv's errors, as a path into the document and a sentence. */
export function pickError(errors: readonly ErrorObject[]): { path: Path; message: string } | undefined {
  const depth = (e: ErrorObject): number => (e.instancePath === '' ? 0 : e.instancePath.split('/').length - 1);
  const [deepest] = [...errors].sort((a, b) => depth(b) - depth(a));
  if (deepest === undefined) return undefined;
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  const chosen = unknown && depth(unknown) >= depth(deepest) - 1 ? unknown : deepest;
  const path = chosen.instancePath.split('/').slice(1).map((part) => {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    return /^\d+$/.test(key) ? Number(key) : key;
  });
  const where = path.length === 0 ? 'the scenario' : path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');
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
  if (chosen.keyword === 'enum') return { path, message: `${where} must be one of ${((chosen.params as { allowedValues: unknown[] }).allowedValues).map((v) => JSON.stringify(v)).join(', ')}` };
  if (chosen.keyword === 'pattern') {
    const description = (chosen.parentSchema as { description?: string } | undefined)?.description;
    return { path, message: `${where} is not valid${description ? `: ${lowerFirst(description)}` : ` (must match ${(chosen.params as { pattern: string }).pattern})`}` };
  }
  return { path, message: `${where} ${chosen.message ?? 'is not valid'}` };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1).replace(/\.$/, '');
}
