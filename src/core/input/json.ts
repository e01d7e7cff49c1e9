/**
 * A strict JSON reader for request bodies. `JSON.parse` cannot see duplicate keys, silently
 * rounds integers past 2^53 and recurses without bound, and the mock must reject or keep all
 * three exactly; this reader does, and reports where the text went wrong.
 */
import { NonInteger, numberValue, plainIntegerEnd } from './json-number.js';

export { NonInteger } from './json-number.js';

/** A parsed JSON value. Integers beyond 2^53 are kept exact as bigint. */
export type JsonValue = null | boolean | number | bigint | NonInteger | string | JsonValue[] | { [key: string]: JsonValue };

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';

  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

/** A body that is JSON but past one of the shape limits below. */
export class JsonLimitError extends JsonSyntaxError {
  override name = 'JsonLimitError';
}

/** Keys refused anywhere in a body: they are how prototype pollution gets in. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
export const MAX_JSON_DEPTH = 64;
/**
 * Shape limits, checked while reading so that no body costs more than its bytes: a NewPet has three
 * fields, a name and an int64, so these leave ample room and refuse only bodies built to be costly
 * (60,000 keys made the schema check 15 times as slow as a plain 1 MiB body; a million-digit number
 * took a tenth of a second to convert).
 */
export const MAX_OBJECT_KEYS = 100;
export const MAX_ARRAY_ITEMS = 1_000;
export const MAX_STRING_LENGTH = 1_000;
export const MAX_NUMBER_LENGTH = 100;

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes UTF-8 strictly and parses it; throws JsonSyntaxError with a readable message.
 * `hasBigInt` is true when some number is a bigint or a NonInteger, which a double cannot stand for.
 */
export function parseJsonBody(bytes: Uint8Array): { value: JsonValue; hasBigInt: boolean } {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new JsonSyntaxError('the body is not valid UTF-8', 0);
  }
  if (text.charCodeAt(0) === 0xfeff) throw new JsonSyntaxError('the body starts with a byte order mark; send plain UTF-8 JSON', 0);
  return parseJsonText(text);
}

/** Parses JSON text strictly (see the module comment). */
export function parseJsonText(text: string): { value: JsonValue; hasBigInt: boolean } {
  const reader = new Reader(text);
  reader.skipSpace();
  if (reader.pos >= text.length) throw new JsonSyntaxError('the body is empty', 0);
  const value = reader.value(0);
  reader.skipSpace();
  if (reader.pos < text.length) reader.fail('unexpected text after the JSON value');
  return { value, hasBigInt: reader.hasBigInt };
}

/** What each one-letter escape stands for. */
const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
]);

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SPACE = /[ \n\r\t]*/y;
/** Exactly MAX_NUMBER_LENGTH + 1 characters that could all belong to a number literal. */
const NUMBER_CHARS = new RegExp(`^[-+.eE0-9]{${MAX_NUMBER_LENGTH + 1}}$`);

class Reader {
  pos = 0;
  hasBigInt = false;
  constructor(private readonly text: string) {}

  fail(message: string): never {
    if (this.pos >= this.text.length) throw new JsonSyntaxError('the JSON ends too early', this.pos);
    throw new JsonSyntaxError(`${message} at character ${this.pos + 1}`, this.pos);
  }

  /** Refuses a body past a shape limit, at the position of the value that broke it. */
  limit(message: string): never {
    throw new JsonLimitError(`${message} (at character ${this.pos + 1})`, this.pos);
  }

  skipSpace(): void {
    const t = this.text;
    let p = this.pos;
    for (let n = 0; n < 16; n++) {
      const c = t.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else {
        this.pos = p;
        return;
      }
    }
    // A long run of white space (a body padded to its size): the regex engine skips it several
    // times faster than a loop of charCodeAt.
    SPACE.lastIndex = p;
    SPACE.test(t);
    this.pos = SPACE.lastIndex;
  }

  value(depth: number): JsonValue {
    if (depth > MAX_JSON_DEPTH) this.fail(`the JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
    const c = this.text[this.pos];
    switch (c) {
      case '{':
        return this.object(depth);
      case '[':
        return this.array(depth);
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      default:
        if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
        return this.fail(c === undefined ? 'the JSON ends too early' : `unexpected character ${JSON.stringify(c)}`);
    }
  }

  literal<T extends JsonValue>(word: string, result: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail('unexpected word');
    this.pos += word.length;
    return result;
  }

  /** Steps into an object or array; true when it closes at once (`{}`, `[]`). */
  open(close: string): boolean {
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] !== close) return false;
    this.pos++;
    return true;
  }

  /** After a member or an item: true when `close` ends the container, false after a comma. */
  next(close: string, what: string): boolean {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c !== close && c !== ',') this.fail(`expected "," or "${close}" in ${what}`);
    this.pos++;
    return c === close;
  }

  object(depth: number): { [key: string]: JsonValue } {
    const result: { [key: string]: JsonValue } = {};
    // The object itself tells which keys came before (the forbidden ones never enter it).
    let keys = 0;
    if (this.open('}')) return result;
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') this.fail('expected a quoted key');
      const keyStart = this.pos;
      const key = this.string();
      if (FORBIDDEN_KEYS.has(key)) {
        this.pos = keyStart;
        this.fail(`the key ${quoted(key)} is not allowed`);
      }
      if (Object.hasOwn(result, key)) {
        this.pos = keyStart;
        this.fail(`the key ${quoted(key)} appears twice`);
      }
      if (keys >= MAX_OBJECT_KEYS) {
        this.pos = keyStart;
        this.limit(`an object has more than ${MAX_OBJECT_KEYS} keys`);
      }
      keys++;
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail('expected ":" after a key');
      this.pos++;
      this.skipSpace();
      result[key] = this.value(depth + 1);
      if (this.next('}', 'an object')) return result;
    }
  }

  array(depth: number): JsonValue[] {
    const result: JsonValue[] = [];
    if (this.open(']')) return result;
    for (;;) {
      this.skipSpace();
      if (result.length >= MAX_ARRAY_ITEMS) this.limit(`an array has more than ${MAX_ARRAY_ITEMS} items`);
      result.push(this.value(depth + 1));
      if (this.next(']', 'an array')) return result;
    }
  }

  string(): string {
    const t = this.text;
    let p = this.pos + 1;
    let out = '';
    let chunkStart = p;
    for (;;) {
      const c = t.charCodeAt(p);
      if (Number.isNaN(c)) {
        this.pos = p;
        this.fail('a string is not closed');
      }
      if (c === 0x22) break;
      // Counted in source characters: an escape is longer than what it stands for, never shorter.
      if (p - this.pos > MAX_STRING_LENGTH * 6) this.tooLong();
      if (c < 0x20) {
        this.pos = p;
        this.fail('a control character must be escaped inside a string');
      }
      if (c === 0x5c) {
        out += t.slice(chunkStart, p);
        const e = t[p + 1];
        p += 2;
        if (e === 'u') {
          const hex = t.slice(p, p + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.pos = p;
            this.fail('a \\u escape needs four hex digits');
          }
          out += String.fromCharCode(parseInt(hex, 16));
          p += 4;
        } else {
          const plain = e === undefined ? undefined : ESCAPES.get(e);
          if (plain === undefined) {
            this.pos = p - 1;
            this.fail('unknown escape in a string');
          }
          out += plain;
        }
        chunkStart = p;
        continue;
      }
      p++;
    }
    out += t.slice(chunkStart, p);
    if (out.length > MAX_STRING_LENGTH) this.tooLong();
    this.pos = p + 1;
    return out;
  }

  private tooLong(): never {
    return this.limit(`a string is longer than ${MAX_STRING_LENGTH} characters`);
  }

  number(): number | bigint | NonInteger {
    const end = plainIntegerEnd(this.text, this.pos);
    if (end > 0) {
      const value = Number(this.text.slice(this.pos, end));
      this.pos = end;
      return value;
    }
    // Refused before the number is matched or converted, so a million digits cost what a hundred do.
    if (NUMBER_CHARS.test(this.text.slice(this.pos, this.pos + MAX_NUMBER_LENGTH + 1))) this.limit(`a number is longer than ${MAX_NUMBER_LENGTH} characters`);
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match) this.fail('malformed number');
    if (match[0].length > MAX_NUMBER_LENGTH) this.limit(`a number is longer than ${MAX_NUMBER_LENGTH} characters`);
    const value = numberValue(match[0]);
    if (value === undefined) this.fail('a number is too large to represent');
    this.pos += match[0].length;
    if (typeof value !== 'number') this.hasBigInt = true;
    return value;
  }
}

/** A key as error messages show it: JSON-quoted, so control characters stay escaped, and short. */
function quoted(key: string): string {
  return JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
}
