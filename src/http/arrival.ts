// When a request reached the mock, as the client audit needs it: "in flight" means it arrived
// before the answer the client was told to obey had left.

/** A stamp shared by the requests taken up until `schedule` runs its callback. */
function turnStamp(schedule: (fn: () => void) => void): () => number {
  let stamp: number | undefined;
  const end = (): void => {
    stamp = undefined;
  };
  return () => {
    if (stamp === undefined) {
      stamp = performance.now();
      schedule(end);
    }
    return stamp;
  };
}

/**
 * The arrival of a request whose head the node:http adapter takes up now, on `performance.now()`'s
 * clock.
 *
 * Requests taken up in one turn of the event loop share the instant the first of them was: the
 * loop learnt of all of them before it wrote any answer of that turn, so none can be a reaction to
 * one. Stamping each as it is handled would date the fourth of four requests read together after
 * the 429 answered to the third, and call a request in flight an early retry. One clock read and
 * one scheduled callback per turn, not per request.
 */
export const socketArrival: () => number = turnStamp(typeof setImmediate === 'function' ? (fn) => void setImmediate(fn) : (fn) => void setTimeout(fn, 0));

/**
 * The arrival of a request given to the Fetch handler in process. Its caller reads an answer once
 * the microtasks run, so calls made together (a `Promise.all`) share a stamp, and a call made
 * after an answer was read gets a later one.
 */
export const callArrival: () => number = turnStamp((fn) => queueMicrotask(fn));

/** A connection as the audit knows it: its number in this process, and how many requests it carried. */
export interface ConnectionUse {
  id: number;
  uses: number;
}

/** Where a socket keeps its number and count; a property rather than a map, read once per request. */
const CONNECTION = Symbol('petstore-mock connection');
let connections = 0;

/**
 * The connection a request came on, counting the request: its number is given when its first
 * request is read, and its count runs over every request it carries, whatever session or key. The
 * audit tells a retry on a connection that carried anything before (a pooled one) from a parallel
 * caller's first request on a new one.
 */
export function useConnection(socket: object): ConnectionUse {
  const numbered = socket as { [CONNECTION]?: ConnectionUse };
  const use = (numbered[CONNECTION] ??= { id: ++connections, uses: 0 });
  use.uses++;
  return use;
}
