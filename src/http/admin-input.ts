// Reading admin request bodies: the clock change, and the body reader's refusals as catalogue errors.
import { INSTANT_HINT, isValidInstant, parseDuration, parseInstant } from '../core/state/clock.js';
import { MockError } from '../core/errors.js';
import type { World } from '../core/state/world.js';

/** The request-body errors of express.json (too large, bad charset or encoding, not JSON) as catalogue errors. */
export function bodyError(error: unknown): MockError | undefined {
  const { type, status } = error as { type?: unknown; status?: unknown };
  switch (type) {
    case 'entity.parse.failed':
      return new MockError('admin_invalid_request', 'petstore-mock: the admin request body is not valid JSON.');
    case 'entity.too.large':
      return new MockError('payload_too_large', 'petstore-mock: admin request bodies are limited to 64 KiB (after decompression); send a smaller one.');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new MockError('unsupported_media_type', 'petstore-mock: send admin request bodies as UTF-8 application/json, uncompressed or as gzip, deflate or br.');
    default:
      // Anything else the body reader refused (an aborted or mis-sized body) is the client's doing.
      return typeof status === 'number' && status >= 400 && status < 500
        ? new MockError('admin_invalid_request', 'petstore-mock: the admin request body could not be read; send it again in full.')
        : undefined;
  }
}

/** Applies `{"set": ISO}`, `{"advance": "90s"}` and/or `{"frozen": bool}` to a clock, all or nothing. */
export function applyClockChange(world: World, body: unknown): void {
  const usage = 'petstore-mock: POST /__admin/clock takes {"set": "2030-12-05T00:00:00Z"}, {"advance": "90s"} and/or {"frozen": true|false}.';
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new MockError('admin_invalid_request', usage);
  const { set, advance, frozen, ...rest } = body as { set?: unknown; advance?: unknown; frozen?: unknown };
  if (Object.keys(rest).length > 0 || (set === undefined && advance === undefined && frozen === undefined)) throw new MockError('admin_invalid_request', usage);
  let instant: number | undefined;
  if (set !== undefined) {
    instant = typeof set === 'string' ? parseInstant(set) : undefined;
    if (instant === undefined) throw new MockError('admin_invalid_request', `petstore-mock: "set" must be ${INSTANT_HINT}, not ${JSON.stringify(set).slice(0, 80)}. ${usage}`);
  }
  let step: number | undefined;
  if (advance !== undefined) {
    step = typeof advance === 'string' || typeof advance === 'number' ? parseDuration(advance) : undefined;
    if (step === undefined) throw new MockError('admin_invalid_request', `petstore-mock: "advance" must be a duration such as "90s", "1m30s", "2h" or "1d". ${usage}`);
  }
  if (frozen !== undefined && typeof frozen !== 'boolean') throw new MockError('admin_invalid_request', usage);
  // Checked before anything changes, so a refused call leaves the clock as it was.
  if (!isValidInstant((instant ?? world.clock.now()) + (step ?? 0))) {
    throw new MockError('admin_invalid_request', 'petstore-mock: that would move the clock beyond the years -271821 to 275760 a date can hold; set or advance it less far.');
  }
  if (frozen === true) world.clock.freeze();
  if (instant !== undefined) world.clock.set(instant);
  if (step !== undefined) world.clock.advance(step);
  if (frozen === false) world.clock.unfreeze();
}
