// Checked indexing for tests: with noUncheckedIndexedAccess an index may be undefined, and a test
// that reads past the end should fail saying so, not with a TypeError further on.

export type Tuple<T, N extends number, R extends T[] = []> = R['length'] extends N ? R : Tuple<T, N, [...R, T]>;

/** The element at `index` (negative counts from the end); fails when there is none. */
export function at<T>(items: ArrayLike<T>, index: number): T {
  const item = index < 0 ? items[items.length + index] : items[index];
  if (item === undefined) throw new Error(`expected an element at index ${index}, but there are ${items.length} elements`);
  return item;
}

/** The first `n` elements as a tuple; fails when there are fewer. */
export function first<T, N extends number>(items: readonly T[], n: N): Tuple<T, N> {
  if (items.length < n) throw new Error(`expected at least ${n} elements, but there are ${items.length}`);
  return items.slice(0, n) as Tuple<T, N>;
}
