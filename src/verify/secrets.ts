// The key hidden in every way a service may echo it back: as sent, JSON-escaped (`\/`, `\u002f`,
// or escaped twice over, `\\/`), URL-escaped (`%2F` or `%2f`), and in base64, alone or inside
// `user:key`, whatever the user.

/** What replaces the key in everything verify prints. */
export const KEY_SHOWN = '<key>';

/** Hex digits matching either case: `2f` gives `2[fF]`. */
const anyCase = (hexDigits: string): string => hexDigits.replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`);

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** One or more backslashes: an escape, or an escape escaped again. */
const BACKSLASHES = '\\\\+';

/** Every spelling of one character a JSON or URL encoder may give it, as a regular expression. */
function spellings(char: string): string {
  const ways = [literal(char)];
  const units = Array.from({ length: char.length }, (_, i) => char.charCodeAt(i));
  ways.push(units.map((u) => `${BACKSLASHES}u${anyCase(u.toString(16).padStart(4, '0'))}`).join(''));
  if (char === '/' || char === '"' || char === '\\') ways.push(`${BACKSLASHES}${literal(char)}`);
  ways.push([...Buffer.from(char, 'utf8')].map((b) => `%${anyCase(b.toString(16).padStart(2, '0'))}`).join(''));
  return `(?:${ways.join('|')})`;
}

/**
 * The base64 characters that depend on the key's bytes alone, for each of the three offsets the
 * key may sit at in an encoded string (after `user:`, say): whatever comes before or after it,
 * these stretches show in the encoding.
 */
function base64Cores(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(3)]).toString('base64');
    // Character i holds bits 6i..6i+5; keep those wholly inside the key's bits.
    const first = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const core = encoded.slice(first, end);
    if (core.length >= 6) cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/**
 * Replaces the key wherever it shows. A key shorter than 4 characters is left alone (it would
 * match ordinary text); the CLI's key is never that short in practice, and Authorization is
 * replaced apart.
 */
export class Secrets {
  private readonly pattern: RegExp | undefined;
  private readonly cores: string[] = [];

  constructor(readonly key: string) {
    if (key.length < 4) return;
    this.pattern = new RegExp([...key].map(spellings).join(''), 'g');
    this.cores = base64Cores(key);
  }

  /** The text with every spelling of the key replaced by `<key>`. */
  scrub(text: string): string {
    const out = this.pattern ? text.replace(this.pattern, KEY_SHOWN) : text;
    return this.cores.length === 0 ? out : this.scrubBase64(out);
  }

  /**
   * A whole run of base64 holding one of the key's stretches goes: the characters around the
   * stretch encode the key too. Found with indexOf and widened by hand, so a long run of base64
   * in a hostile body costs linear time, not a regular expression's backtracking.
   */
  private scrubBase64(text: string): string {
    let out = '';
    let from = 0;
    for (;;) {
      let at = -1;
      let length = 0;
      for (const core of this.cores) {
        const found = text.indexOf(core, from);
        if (found !== -1 && (at === -1 || found < at)) [at, length] = [found, core.length];
      }
      if (at === -1) return out + text.slice(from);
      let start = at;
      while (start > from && BASE64.test(text[start - 1] ?? '')) start--;
      let end = at + length;
      while (end < text.length && (BASE64.test(text[end] ?? '') || text[end] === '=')) end++;
      out += `${text.slice(from, start)}${KEY_SHOWN} (base64)`;
      from = end;
    }
  }
}

const BASE64 = /^[A-Za-z0-9+/_-]$/;
