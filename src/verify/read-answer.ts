// One request and its answer, read with bounds: at most MAX_ANSWER_BYTES of the body and all of it
// within the timeout, so that a huge, endless, slow or compressed-bomb answer costs verify a
// bounded amount of memory and time and still leaves it something to report.
import { MAX_STRING_LENGTH } from '../core/input/json.js';
import { PET_STATUSES } from '../core/input/openapi.js';

/** The longest int64 as JSON writes it: `-9223372036854775808`. */
const INT64_CHARS = 20;
/** Each UTF-16 unit of a string written as `\uXXXX`, the longest way JSON spells one. */
const ESCAPED_UNIT_BYTES = 6;
const LONGEST_STATUS = Math.max(...PET_STATUSES.map((s) => s.length));

/**
 * The bytes of the largest real answer: a page of 100 animals, each with int64 `id` and
 * `categoryId` at their longest, the longest status, and a name of the most characters the mock
 * accepts (the OpenAPI document sets no maxLength), every character written as a `\uXXXX` escape.
 */
export const LARGEST_LIST_BYTES =
  100 * (`{"id":,"name":"","categoryId":,"status":""}`.length + 2 * INT64_CHARS + MAX_STRING_LENGTH * ESCAPED_UNIT_BYTES + LONGEST_STATUS) + 100 + 1;

/**
 * The most bytes verify reads of an answer's body (after any decompression): 1 MiB, above the
 * largest real answer with room for any indentation a service pretty-prints with.
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** What came back: the status, the headers, and the body as far as verify read it. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** True when the body went on past MAX_ANSWER_BYTES and verify stopped reading it. */
  cut: boolean;
}

/** The answer, or why none came whole. */
export type Outcome = { answer: Answer } | { error: string };

export interface Sending {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/**
 * Sends one request and reads its answer within `timeoutMs` for the whole of it, headers and
 * body. Past MAX_ANSWER_BYTES the request is aborted, which closes the connection, so an endless
 * body is not read on; what was read is kept and the answer marked `cut`.
 */
export async function readAnswer(url: string, sending: Sending): Promise<Outcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, sending.timeoutMs);
  const within = `${sending.timeoutMs / 1000} s`;
  try {
    let res: Response;
    try {
      res = await fetch(url, { method: sending.method, headers: sending.headers, body: sending.body, redirect: 'manual', signal: controller.signal });
    } catch (error) {
      return { error: timedOut ? `no answer within ${within}` : describeFailure(error) };
    }
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    let cut = false;
    const reader = res.body?.getReader();
    try {
      while (reader) {
        const { done, value } = await reader.read();
        if (done) break;
        if (bytes + value.byteLength > MAX_ANSWER_BYTES) {
          chunks.push(value.subarray(0, MAX_ANSWER_BYTES - bytes));
          bytes = MAX_ANSWER_BYTES;
          cut = true;
          break;
        }
        chunks.push(value);
        bytes += value.byteLength;
      }
    } catch (error) {
      const came = `${res.status} and ${bytes} byte${bytes === 1 ? '' : 's'} of its body came`;
      return { error: timedOut ? `no whole answer within ${within} (${came})` : `the answer broke off (${came}): ${describeFailure(error)}` };
    }
    if (cut) controller.abort();
    return { answer: { status: res.status, headers: Object.fromEntries(res.headers), body: new TextDecoder().decode(Buffer.concat(chunks)), cut } };
  } finally {
    clearTimeout(timer);
  }
}

/** Why fetch got no answer, in words: the system's code when there is one. */
export function describeFailure(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.message) return cause.message;
  if (cause?.code) return cause.code;
  return error instanceof Error ? error.message : String(error);
}
