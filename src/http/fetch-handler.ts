import { BODYLESS_METHODS, MAX_BODY_BYTES } from '../core/input/body.js';
import type { ApiHandler } from '../core/state/backend.js';
import { MockError, named } from '../core/errors.js';
import type { CoreRequest, CoreResponse, HeaderBag } from '../core/types.js';
import { MAX_TARGET_BYTES, targetTooLong } from '../core/input/request-target.js';
import { callArrival } from './arrival.js';

/** Statuses a Fetch `Response` must be built without a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** Reads a Fetch body up to the size limit; past it, stops reading so a huge upload is not buffered. */
async function readBody(request: Request): Promise<{ body: Uint8Array; tooLarge: boolean }> {
  if (!request.body) return { body: new Uint8Array(0), tooLarge: false };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return { body: new Uint8Array(0), tooLarge: true };
    }
    chunks.push(value);
  }
  return { body: new Uint8Array(await new Blob(chunks).arrayBuffer()), tooLarge: false };
}

/** Turns Fetch headers into the lower-case bag the core reads, plus raw pairs for its duplicate checks. */
function headerBag(headers: Headers): { bag: HeaderBag; raw: string[] } {
  const bag: HeaderBag = {};
  const raw: string[] = [];
  headers.forEach((value, name) => {
    bag[name] = value;
    raw.push(name, value);
  });
  return { bag, raw };
}

/** Turns a core response into a Fetch one; a connection fault becomes a network error, as a real socket would. */
async function toResponse(method: string, response: CoreResponse): Promise<Response> {
  if (response.delayMs !== undefined && response.delayMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, response.delayMs));
  }
  if (response.fault) return Response.error();
  const body = method === 'HEAD' || NULL_BODY.has(response.status) ? null : (response.body ?? null);
  return new Response(body, { status: response.status, headers: response.headers });
}

/**
 * Answers one Fetch `Request` from the core, as the node:http adapter does for a socket: same
 * checks, same headers, same journal. Only the URL's path and query matter, so any origin works.
 */
export async function answerFetch(engine: ApiHandler, request: Request, remoteAddress: string | undefined): Promise<Response> {
  const arrival = callArrival();
  const url = new URL(request.url);
  const { bag, raw } = headerBag(request.headers);
  const method = request.method.toUpperCase();
  const core: CoreRequest = { method, path: url.pathname, query: url.search.slice(1), headers: bag, rawHeaders: raw, remoteAddress, arrival };
  const targetLength = url.pathname.length + url.search.length;
  if (targetLength > MAX_TARGET_BYTES) {
    const error = targetTooLong(targetLength);
    return toResponse(method, await engine.refuse({ ...core, path: '/', query: '' }, error));
  }
  if (url.pathname === '/__admin' || url.pathname.startsWith('/__admin/')) {
    const error = new MockError(
      'route_not_found',
      named("the admin API is not served in-process; use the handler's clock, reset(), useScenario() and requests() instead."),
    );
    return toResponse(method, await engine.refuse(core, error));
  }
  if (!BODYLESS_METHODS.has(method) && request.body) {
    const { body, tooLarge } = await readBody(request);
    core.body = body;
    core.bodyTooLarge = tooLarge;
  }
  return toResponse(method, await engine.handle(core));
}
