// What the validators generated at build time (scripts/browser-validators.mjs) call at run time
// in place of Ajv's own helpers, so the page carries none of Ajv.

/** A string's length in code points, as JSON Schema's `minLength` and `maxLength` count it. */
export function ucs2length(text: string): number {
  let length = 0;
  for (const _point of text) length++;
  return length;
}
