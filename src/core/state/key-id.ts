// A key's fingerprint for the journal: short and stable, of the whole key, so two keys that redact
// alike stay apart wherever requests are grouped or filtered, without the journal holding the key.
// SHA-256 written out here because the core runs in browsers too, where hashing is only async.

import { platform } from '../platform.js';

/** The first 32 bits of the fractional parts of `root` of the first `n` primes (FIPS 180-4, 4.2.2 and 5.3.3). */
function primeRoots(n: number, root: (p: number) => number): Uint32Array {
  const primes: number[] = [];
  for (let k = 2; primes.length < n; k++) if (primes.every((p) => k % p !== 0)) primes.push(k);
  // Each value lies at least 0.005 of its last bit away from the next, where a cube root's last-place
  // error is a millionth of it: computed, not written out, for a smaller browser build.
  return Uint32Array.from(primes, (p) => ((root(p) % 1) * 2 ** 32) >>> 0);
}

const K = primeRoots(64, Math.cbrt);
const H0 = primeRoots(8, Math.sqrt);

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** SHA-256 of bytes (FIPS 180-4), as eight 32-bit words. */
function sha256Words(bytes: Uint8Array): Uint32Array {
  const bitLength = bytes.length * 8;
  const padded = new Uint8Array((((bytes.length + 9 + 63) >> 6) << 6) >>> 0);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x1_0000_0000));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = H0.slice();
  const w = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!];
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => (h[i] = (h[i]! + v) >>> 0));
  }
  return h;
}

/** The hex SHA-256 of a text's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return Array.from(sha256Words(new TextEncoder().encode(text)), (word) => word.toString(16).padStart(8, '0')).join('');
}

/**
 * The journal's `keyId` of a key: the first 8 hex digits of the SHA-256 of the deployment's salt and
 * the key. 32 bits tell apart the keys of one mock; the salt, which the deployment keeps to itself,
 * stops anyone who sees an id beside a key's visible characters from testing guesses at the rest.
 */
export function keyIdOf(key: string, salt: string): string {
  return sha256Words(new TextEncoder().encode(`${salt}\u0000${key}`))[0]!
    .toString(16)
    .padStart(8, '0');
}

/** A fresh salt for a deployment's key ids: 128 random bits, as hex. */
export function newKeySalt(): string {
  const bytes = platform().randomBytes?.(16) ?? globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Past this many distinct keys the memo of a deployment's key ids starts over. */
const MEMO_LIMIT = 10_000;

/** One deployment's key ids: salted with its salt, each worked out once (the hot path hashes no key). */
export class KeyIds {
  private readonly memo = new Map<string, string>();

  constructor(private readonly salt: string) {}

  /** The `keyId` of a whole key in this deployment. */
  of(key: string): string {
    let id = this.memo.get(key);
    if (id === undefined) {
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      id = keyIdOf(key, this.salt);
      this.memo.set(key, id);
    }
    return id;
  }
}

/** What a key looks like in a sentence: redacted, and with its id when another key of the same journal redacts alike. */
export function keyLabel(redacted: string, keyId: string | undefined, ambiguous: boolean): string {
  return ambiguous && keyId !== undefined ? `${redacted} #${keyId}` : redacted;
}
