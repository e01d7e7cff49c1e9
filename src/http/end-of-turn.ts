// Answers are ended together once per turn of the event loop, not each as soon as its request is
// handled. Every write to a socket can wake the client's reader on its own; written in one burst
// after the turn's requests were handled, one wake-up serves many of them. Measured on the list
// under wrk's 50 connections: 37.8 → 26.8 µs of the server's CPU per request, user and system time
// both down, for a few microseconds of latency (the answers wait for the turn's other requests).
// A turn that answers one request gains nothing by waiting, and a client that sends one request at
// a time paid for it (p50 125 µs, against 102 answered at once: docs/performance.md): after such a
// turn, answers end at once until a turn answers more than one again.
import type { ServerResponse } from 'node:http';

// Taken at load: fake timers a test installs later must not hold the answers back.
const schedule = setImmediate;

/** The answers handed over in this turn so far, and whether they wait for its end (the last turn had more than one). */
let answers = 0;
let batching = false;
let responses: ServerResponse[] = [];
let bodies: (string | undefined)[] = [];
let encodings: BufferEncoding[] = [];

/**
 * Ends `res` with `body` once the requests read in this turn have been handled. The head must be
 * written already (`writeHead`), so `headersSent` tells the truth meanwhile.
 */
export function endThisTurn(res: ServerResponse, body: string | undefined, encoding: BufferEncoding): void {
  if (res.socket === null) {
    // Pipelined behind an answer its connection still owes: ended now. Node counts a queued
    // answer's bytes only once it is ended, and stops reading a connection on them; held to the
    // end of the turn, a client that pipelines without reading had the server read and answer
    // everything libuv read in one turn (up to 2 MB of requests) before pausing.
    endNow(res, body, encoding);
    return;
  }
  if (answers++ === 0) schedule(endAll);
  if (!batching) {
    endNow(res, body, encoding);
    return;
  }
  responses.push(res);
  bodies.push(body);
  encodings.push(encoding);
}

function endAll(): void {
  batching = answers > 1;
  answers = 0;
  // Taken out first: an answer ended here that makes another (none does today) starts a new turn.
  const ending = responses;
  const withBodies = bodies;
  const inEncodings = encodings;
  responses = [];
  bodies = [];
  encodings = [];
  for (let i = 0; i < ending.length; i++) {
    const res = ending[i] as ServerResponse;
    if (!res.destroyed) endNow(res, withBodies[i], inEncodings[i] as BufferEncoding);
  }
}

function endNow(res: ServerResponse, body: string | undefined, encoding: BufferEncoding): void {
  try {
    if (body === undefined) res.end();
    else res.end(body, encoding);
  } catch {
    // One connection's failure must not keep the others of the turn from their answers.
    res.destroy();
  }
}
