// What this replica knows of Redis's clock, so that a call can carry the Redis instant after which
// the replica has given up on it: a script that starts later changes nothing (the request was
// answered 503, "nothing happened", so nothing may happen). Learnt from Redis's own TIME readings
// against this process's monotonic clock (performance.now()), so the host's wall clock plays no part.

/** A reading older than this no longer bounds the offset (the two clocks' rates differ a little). */
const KEEP_MS = 10_000;
/** Taken off every deadline: Redis's TIME is read in whole milliseconds, and the rates may differ. */
const MARGIN_MS = 2;
/**
 * The share of the timeout kept for the answer's way back: a call Redis ran just before the
 * replica gave up would be stored while its answer, still on the wire or waiting behind a busy
 * event loop (whose timers run before it reads sockets), is taken for a timeout and answered 503.
 */
const ANSWER_SHARE = 0.25;

/**
 * The least Redis can be ahead of the monotonic clock: a reading `redisMs` received at
 * `receivedAt` gives `redisMs - receivedAt` as a lower bound; the greatest recent bound is the
 * tightest. A deadline from it is never later than Redis's true time when the replica gives up.
 */
export class RedisClock {
  private best: number | undefined;
  private bestAt = 0;
  private stale = false;

  observe(redisMs: number, receivedAt: number): void {
    if (!Number.isFinite(redisMs)) return;
    const bound = redisMs - receivedAt;
    if (this.best === undefined || this.stale || bound >= this.best || receivedAt - this.bestAt > KEEP_MS) {
      this.best = bound;
      this.bestAt = receivedAt;
      this.stale = false;
    }
  }

  /**
   * Another server, whose clock may differ, answers now: the next reading replaces what was known.
   * Until it comes, deadlines still come from the old reading: servers that take over one another's
   * data agree within the margin (docs/scale-out.md), and a call sent with no deadline could run
   * after the replica had answered it 503 (a slot migration stored five such creates once).
   */
  forget(): void {
    this.stale = true;
  }

  /** The Redis instant (ms) after which a call sent at `sentAt` must change nothing; undefined before any reading. */
  deadline(sentAt: number, timeoutMs: number): number | undefined {
    if (this.best === undefined) return undefined;
    return Math.floor(sentAt + timeoutMs * (1 - ANSWER_SHARE) + this.best) - MARGIN_MS;
  }
}
