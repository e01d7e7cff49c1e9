// The API script's input as sent: fields that hold their empty value are left out, since every
// byte of JSON is decoded by Redis on every call.

/**
 * The fields of `DecideInput` sent as they are; the script reads every other one as '', false, 0 or
 * empty when absent, an operation's own fields among them (operations/), so a new one is lean too.
 */
const ALWAYS_SENT = new Set(['mode', 'bucket', 'lim']);

/**
 * The script's input without the optional fields that hold their empty value, and without the
 * removal date unless the limit depends on it: less JSON for Redis to decode on every request.
 */
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
