// A value given at once or later: the one way the code handles both. The in-memory home answers
// at once and the Redis home with a promise, and an in-memory answer must never wait for a
// microtask (docs/performance.md), so a value is passed on as it came, never wrapped.

/** A value at once, or a promise of it. (No helper is named `then`: a module exporting one is a thenable to `import()`.) */
export type Maybe<T> = T | Promise<T>;

/**
 * Goes on with a value given at once, or once its promise settles; `failed` takes a rejection
 * (a value given at once cannot fail).
 */
export function andThen<T, U>(value: Maybe<T>, next: (value: T) => Maybe<U>, failed?: (error: unknown) => Maybe<U>): Maybe<U> {
  if (!(value instanceof Promise)) return next(value);
  return failed === undefined ? value.then(next) : value.then(next, failed);
}

/** Goes on with two values, at once when both are at hand. */
export function thenBoth<T, V, U>(a: Maybe<T>, b: Maybe<V>, next: (a: T, b: V) => U): Maybe<U> {
  if (a instanceof Promise || b instanceof Promise) return Promise.all([a, b]).then(([x, y]) => next(x, y));
  return next(a, b);
}

/** Gives a failure of `fn`, thrown or rejected, as `map` says. */
export function mapFailure<T>(fn: () => Maybe<T>, map: (error: unknown) => unknown): Maybe<T> {
  let value: Maybe<T>;
  try {
    value = fn();
  } catch (error) {
    throw map(error);
  }
  return value instanceof Promise ? value.catch((error: unknown) => Promise.reject(map(error))) : value;
}

/** The value of a home that answers at once; a promise there is a bug. */
export function atOnce<T>(value: Maybe<T>, what: string): T {
  if (value instanceof Promise) throw new Error(`unreachable: ${what} answered with a promise`);
  return value;
}
