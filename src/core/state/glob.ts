// The journal's `path=` filter comes from whoever can reach the admin API, and a regular
// expression built from `*` → `.*` backtracks: `/*a*a*a*b` took over a second per entry. This
// matcher reads the text once, left to right, whatever the pattern.

/** The failure table of Knuth–Morris–Pratt for one literal part. */
function failureTable(part: string): Int32Array {
  const table = new Int32Array(part.length);
  let k = 0;
  for (let i = 1; i < part.length; i++) {
    while (k > 0 && part[i] !== part[k]) k = table[k - 1] ?? 0;
    if (part[i] === part[k]) k++;
    table[i] = k;
  }
  return table;
}

/** Where `part` first occurs in `text` at or after `from`, or -1; each character of text is read once. */
function find(text: string, part: string, table: Int32Array, from: number, until: number): number {
  if (part.length === 0) return from;
  let k = 0;
  for (let i = from; i < until; i++) {
    while (k > 0 && text[i] !== part[k]) k = table[k - 1] ?? 0;
    if (text[i] === part[k]) k++;
    if (k === part.length) return i - part.length + 1;
  }
  return -1;
}

/**
 * Compiles a pattern where `*` stands for any run of characters (none included) and every other
 * character stands for itself; `test(text)` runs in O(text + pattern) time. With only `*`, taking
 * each middle part at its first occurrence is never wrong (a later one leaves less room for what
 * follows), so no choice is ever undone.
 */
export function compileGlob(pattern: string): { test(text: string): boolean } {
  const parts = pattern.split('*');
  if (parts.length === 1) return { test: (text) => text === pattern };
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  const middle = parts.slice(1, -1).filter((p) => p !== '');
  const tables = middle.map(failureTable);
  const fixed = first.length + last.length;
  return {
    test(text) {
      if (text.length < fixed || !text.startsWith(first) || !text.endsWith(last)) return false;
      let at = first.length;
      const until = text.length - last.length;
      for (let i = 0; i < middle.length; i++) {
        const part = middle[i] as string;
        const found = find(text, part, tables[i] as Int32Array, at, until);
        if (found === -1) return false;
        at = found + part.length;
      }
      return true;
    },
  };
}
