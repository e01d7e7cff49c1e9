// A bound of our own on every call to the shared state, whatever the Redis client does with it.
/**
 * The call's promise, or a timeout past `ms`. The client's command timeout counts from when a
 * command is written: one held in its queue before that (a Cluster client finding its slots again
 * after a cut) had no bound of ours, and a request could wait on it with no answer. A CI run saw a
 * replica on a Cluster give no answer for over 40 s after a cut; this bounds every call whatever
 * the client does.
 */
export function settledWithin<T>(call: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Command timed out: no reply within ${ms} ms`)), ms);
    call.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
