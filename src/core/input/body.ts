import { MockError } from '../errors.js';
import { BodyTooLarge, platform } from '../platform.js';
import { JsonLimitError, JsonSyntaxError, parseJsonBody, type JsonValue } from './json.js';
import type { HeaderBag } from '../types.js';

/** The largest body the mock accepts, counted after decompression. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Methods whose request body the mock never reads, in every front end: the API defines none for
 * them (HTTP gives a GET, HEAD, OPTIONS or DELETE body no meaning), so their answer, journal entry
 * and audit never depend on one. A body sent anyway is drained unread.
 */
export const BODYLESS_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);

/** The compressed codings the mock reads, by their Content-Encoding names. */
const CODINGS: ReadonlyMap<string, 'gzip' | 'deflate' | 'br'> = new Map([
  ['gzip', 'gzip'],
  ['x-gzip', 'gzip'],
  ['deflate', 'deflate'],
  ['br', 'br'],
]);

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * `application/json`, with no charset or UTF-8 only; parameters other than charset are ignored.
 * Returns undefined when the type is acceptable, or the reason it is not.
 */
function mediaTypeProblem(contentType: string | undefined, hasBody: boolean): string | undefined {
  // What nearly every client sends, settled without splitting and lower-casing on each request.
  if (contentType === 'application/json' || contentType === 'application/json; charset=utf-8') return undefined;
  if (contentType === undefined || contentType.trim() === '') {
    return hasBody ? 'The body has no Content-Type; send it as "Content-Type: application/json".' : undefined;
  }
  const [type = '', ...params] = contentType.split(';');
  if (type.trim().toLowerCase() !== 'application/json') {
    return `The Content-Type ${JSON.stringify(type.trim().slice(0, 100))} is not supported; send the body as application/json.`;
  }
  for (const param of params) {
    const [name = '', rawValue = ''] = param.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const value = rawValue
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (value !== 'utf-8' && value !== 'utf8') {
      return `The charset ${JSON.stringify(value.slice(0, 40))} is not supported; send UTF-8 JSON (charset=utf-8 or none).`;
    }
  }
  return undefined;
}

/**
 * Checks media type (415), size (413) and JSON syntax (400) in that order, and returns the
 * parsed body. Compressed bodies (gzip, deflate, br) are inflated up to the size limit.
 */
export function readJsonBody(headers: HeaderBag, body: Uint8Array | null | undefined, tooLarge: boolean): { value: JsonValue; hasBigInt: boolean } {
  const refused = mediaTypeError(headers, body, tooLarge);
  if (refused) throw refused;
  if (tooLarge) throw tooLargeError();
  if (!body || body.length === 0) throw new MockError('missing_body', 'The request needs a JSON body, for example {"name": "Rex", "categoryId": 3}.');
  // Codings are listed in the order they were applied, so they are undone from the last.
  const codings = contentCodings(single(headers['content-encoding'])) as string[];
  const bytes = codings.reduceRight<Uint8Array>((inner, coding) => inflate(inner, coding), body);
  try {
    return parseJsonBody(bytes);
  } catch (error) {
    if (error instanceof JsonLimitError)
      throw new MockError(
        'invalid_json',
        `The body is past a limit of petstore-mock: ${error.message}. A NewPet needs only {"name": string, "categoryId": integer, "status"?: string}.`,
      );
    if (error instanceof JsonSyntaxError) throw new MockError('invalid_json', `The body is not valid JSON: ${error.message}.`);
    throw error;
  }
}

/** The 415 of a body's declared type or coding, or undefined when both are acceptable. */
export function mediaTypeError(headers: HeaderBag, body: Uint8Array | null | undefined, tooLarge: boolean): MockError | undefined {
  const hasBody = tooLarge || (body !== null && body !== undefined && body.length > 0);
  const problem = mediaTypeProblem(single(headers['content-type']), hasBody);
  if (problem) return new MockError('unsupported_media_type', problem);
  const codings = contentCodings(single(headers['content-encoding']));
  return codings instanceof MockError ? codings : undefined;
}

/** More compression layers than any client sends; each layer costs up to 1 MiB of inflating. */
const MAX_CODINGS = 3;

/**
 * The codings of a `Content-Encoding` list (`identity, gzip` or `gzip, br`), identity left out,
 * or the 415 of a coding the mock cannot undo, so it can be told from the headers alone.
 */
function contentCodings(header: string | undefined): string[] | MockError {
  if (header === undefined) return [];
  const codings: string[] = [];
  for (const part of header.split(',')) {
    const coding = part.trim().toLowerCase();
    if (coding === '' || coding === 'identity') continue;
    if (!CODINGS.has(coding)) {
      return new MockError(
        'unsupported_media_type',
        `The Content-Encoding ${JSON.stringify(coding.slice(0, 40))} is not supported; send the body uncompressed or as gzip, deflate or br.`,
      );
    }
    codings.push(coding);
  }
  if (codings.length > MAX_CODINGS) {
    return new MockError(
      'unsupported_media_type',
      `The Content-Encoding lists ${codings.length} compressions; petstore-mock undoes at most ${MAX_CODINGS}. Compress the body once.`,
    );
  }
  return codings;
}

/**
 * Whether a body's declared type or coding alone already refuses it (415), so a client that asked
 * `Expect: 100-continue` can be answered before it uploads. A missing Content-Type is left to the
 * full check, which needs the body.
 */
export function mediaTypeRefusedByHeaders(headers: HeaderBag): boolean {
  const type = single(headers['content-type']);
  if (type !== undefined && type.trim() !== '' && mediaTypeProblem(type, true) !== undefined) return true;
  return contentCodings(single(headers['content-encoding'])) instanceof MockError;
}

/** Whether a body's declared length alone is past the limit (413), before it is uploaded. */
export function bodySizeRefusedByHeaders(headers: HeaderBag): boolean {
  return Number(single(headers['content-length'])) > MAX_BODY_BYTES;
}

/** The 413 of a body past the limit. */
export function tooLargeError(): MockError {
  return new MockError('payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes (1 MiB); send a smaller one.`);
}

function inflate(body: Uint8Array, encoding: string): Uint8Array {
  const coding = CODINGS.get(encoding)!;
  const { decompress } = platform();
  if (!decompress) throw new MockError('unsupported_media_type', `This build of petstore-mock cannot decompress bodies; send the body uncompressed.`);
  try {
    return decompress(coding, body, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw tooLargeError();
    throw new MockError('invalid_json', `The body could not be decompressed as ${encoding}; check the Content-Encoding header.`);
  }
}
