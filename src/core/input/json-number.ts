/**
 * What a JSON number literal denotes, exactly: the reader keeps integers past 2^53 as bigint and
 * never lets a double's rounding turn a non-integer into an integer.
 */

/**
 * A number literal that is not an integer although the nearest double is one (`1e-400`,
 * `9007199254740993.5`, `1.0000000000000000001`). A double would pass it off as an integer, so it
 * is kept apart and no integer field accepts it.
 */
export class NonInteger {
  constructor(readonly literal: string) {}
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;
// Far beyond int64, so range errors still name the field, but small enough to stay cheap.
const MAX_EXACT = 10n ** 40n;

/**
 * The value of a number literal: a double when that is exact enough, a bigint for an integer past
 * 2^53, a NonInteger for a non-integer a double would round to an integer; undefined when it is
 * too large to represent.
 */
export function numberValue(literal: string): number | bigint | NonInteger | undefined {
  const exact = exactInteger(literal);
  if (exact !== undefined && (exact > MAX_EXACT || exact < -MAX_EXACT)) return undefined;
  if (exact !== undefined && (exact > MAX_SAFE || exact < MIN_SAFE)) return exact;
  const value = Number(literal);
  if (!Number.isFinite(value)) return undefined;
  if (exact === undefined && Number.isInteger(value)) return new NonInteger(literal);
  return value;
}

/**
 * The exact integer a number literal denotes (`12`, `1.20e1`, `9007199254740993`), or undefined
 * when it is not an integer or its exponent is absurd.
 */
function exactInteger(literal: string): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!m) return undefined;
  const [, sign, whole, fraction = '', expText = '0'] = m;
  const exp = Number(expText);
  if (!/[1-9]/.test(whole + fraction)) return 0n;
  if (Math.abs(exp) > 400) return exp > 0 ? MAX_EXACT * 10n : undefined;
  let digits = whole + fraction;
  let scale = exp - fraction.length;
  if (scale < 0) {
    const cut = digits.length + scale;
    const dropped = cut > 0 ? digits.slice(cut) : digits;
    if (/[1-9]/.test(dropped)) return undefined;
    digits = cut > 0 ? digits.slice(0, cut) : '0';
    scale = 0;
  }
  const value = BigInt(digits) * 10n ** BigInt(scale);
  return sign === '-' ? -value : value;
}

/**
 * Where a plain integer literal starting at `start` ends (`3`, `-42`: at most 15 digits, no
 * leading zero, no fraction or exponent, so a double holds it exactly), or -1 when the text there
 * is anything else and needs the full reading.
 */
export function plainIntegerEnd(text: string, start: number): number {
  let p = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  const first = p;
  for (let c = text.charCodeAt(p); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++p));
  const digits = p - first;
  const after = text.charCodeAt(p);
  if (digits === 0 || digits > 15 || (digits > 1 && text.charCodeAt(first) === 0x30)) return -1;
  return after === 0x2e || after === 0x65 || after === 0x45 ? -1 : p;
}
