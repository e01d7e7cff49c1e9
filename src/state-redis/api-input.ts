// The API script's input: its fields, and as sent, where fields that hold their empty value are
// left out, since every byte of JSON is decoded by Redis on every call.

/** What one request asks of the session's state, as the script reads it. */
export interface DecideInput {
  mode: 'peek' | 'take';
  bucket: string;
  /** The windows, length and most of each in one flat list, shortest first (limitsInput). */
  lim: readonly number[];
  /** Whether the limit refuses: yes, or no (an earlier check failed); not either once the operation is removed. */
  enforce?: 'yes' | 'no';
  /** Whether the operation has a removal date (`removalAt`) the script judges. */
  removal?: boolean;
  removalAt?: number;
  rule?: { after: number; ms: number; inFlight: number };
  /** Per step, the answer's one-letter kind when the step matches this request, else '-'. */
  steps?: string;
  times?: number[];
  rep?: boolean;
  chaos?: { p: number; c: string }[];
  lat?: boolean;
  /** '' (no operation), 'none' (nothing to read or write), 'decl', or an operation's own (operations/). */
  op?: string;
  /** A declared operation's id: the script counts its calls in the session's field `d:<id>`. */
  dop?: string;
}

/** The fields always sent; the script reads every other one as '', false, 0 or empty when absent. */
const ALWAYS_SENT = new Set(['mode', 'bucket', 'lim']);

/** The script's input without the fields that hold their empty value, and the removal date unless the limit depends on it. */
export function leanInput(input: object): Record<string, unknown> {
  const all = input as Record<string, unknown>;
  const lean: Record<string, unknown> = {};
  for (const name in all) {
    const value = all[name];
    const empty = value === '' || value === false || value === 0 || (Array.isArray(value) && value.length === 0);
    if ((empty && !ALWAYS_SENT.has(name)) || (name === 'removalAt' && all.removal !== true)) continue;
    lean[name] = value;
  }
  return lean;
}
