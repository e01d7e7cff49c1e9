// Reading admin requests: the clock change, the body reader's refusals as catalogue errors, and
// query parameters given once.
import type { Request } from 'express';
import { INSTANT_HINT, parseDuration, parseInstant } from '../core/state/clock.js';
import { MockError } from '../core/errors.js';
import type { ClockChange } from '../core/state/backend.js';
import { MAX_JSON_DEPTH } from '../core/input/json.js';

/** Thrown by `checkDepth`, so that bodyError can tell it from the body reader's own refusals. */
class TooDeep extends Error {}

/**
 * The admin body reader's `verify`: refuses JSON nested deeper than the API allows before it is
 * parsed. Every admin body is a flat object; a deep one only exists to exhaust the stack of what
 * reads or prints it (5,000 levels in `"set"` were a 500). Reads the bytes once.
 */
export function checkDepth(_req: unknown, _res: unknown, bytes: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) throw new TooDeep(`admin request bodies nest at most ${MAX_JSON_DEPTH} levels deep; send a flat JSON object.`);
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/** The request-body errors of express.json (too large, bad charset or encoding, not JSON) as catalogue errors. */
export function bodyError(error: unknown): MockError | undefined {
  if (error instanceof TooDeep) return new MockError('admin_invalid_request', error.message);
  const { type, status } = error as { type?: unknown; status?: unknown };
  switch (type) {
    case 'entity.parse.failed':
      return new MockError('admin_invalid_request', 'the admin request body is not valid JSON.');
    case 'entity.too.large':
      return new MockError('payload_too_large', 'admin request bodies are limited to 64 KiB, snapshots to 32 MiB (after decompression); send a smaller one.');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new MockError('unsupported_media_type', 'send admin request bodies as UTF-8 application/json, uncompressed or as gzip, deflate or br.');
    default:
      // Anything else the body reader refused (an aborted or mis-sized body) is the client's doing.
      return typeof status === 'number' && status >= 400 && status < 500
        ? new MockError('admin_invalid_request', 'the admin request body could not be read; send it again in full.')
        : undefined;
  }
}

/** The query parameter `name`, given at most once as a plain value; `of` says whose parameter it is in the refusal (`journal`, `audit`). */
export function singleParam(req: Request, of: string, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new MockError('admin_invalid_request', `the ${of} parameter ${name} must be given once, as a plain value.`);
  return value;
}

/** Refuses a query parameter not in `known`: a typo, not a no-op. `refusal` words it from the name as shown. */
export function onlyParams(req: Request, known: ReadonlySet<string>, refusal: (shown: string) => string): void {
  for (const name of Object.keys(req.query)) if (!known.has(name)) throw new MockError('admin_invalid_request', refusal(JSON.stringify(name.slice(0, 40))));
}

/** A value as a message shows it, without printing (or recursing into) whatever was sent. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 80));
  if (Array.isArray(value)) return 'an array';
  return value !== null && typeof value === 'object' ? 'an object' : String(value);
}

/** Reads `{"set": ISO}`, `{"advance": "90s"}` and/or `{"frozen": bool}`; the state applies it all or nothing. */
export function parseClockChange(body: unknown): ClockChange {
  const usage = 'POST /__admin/clock takes {"set": "2030-12-05T00:00:00Z"}, {"advance": "90s"} and/or {"frozen": true|false}.';
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new MockError('admin_invalid_request', usage);
  const { set, advance, frozen, ...rest } = body as { set?: unknown; advance?: unknown; frozen?: unknown };
  if (Object.keys(rest).length > 0 || (set === undefined && advance === undefined && frozen === undefined)) throw new MockError('admin_invalid_request', usage);
  const change: ClockChange = {};
  if (set !== undefined) {
    const instant = typeof set === 'string' ? parseInstant(set) : undefined;
    if (instant === undefined) throw new MockError('admin_invalid_request', `"set" must be ${INSTANT_HINT}, not ${shown(set)}. ${usage}`);
    change.set = instant;
  }
  if (advance !== undefined) {
    const step = typeof advance === 'string' || typeof advance === 'number' ? parseDuration(advance) : undefined;
    if (step === undefined) throw new MockError('admin_invalid_request', `"advance" must be a duration such as "90s", "1m30s", "2h" or "1d". ${usage}`);
    change.advance = step;
  }
  if (frozen !== undefined && typeof frozen !== 'boolean') throw new MockError('admin_invalid_request', usage);
  if (frozen !== undefined) change.frozen = frozen;
  return change;
}
