/**
 * Memory bounds shared by all the sessions of a server. Each session has its own bounds too, but
 * a thousand sessions each within theirs would still add up to gigabytes; these keep the total
 * at a stated figure (docs/limits.md). Sizes are estimates of the heap an item holds, counted
 * generously: what matters is that they grow with what clients send, and are capped.
 */
export class SharedBudget {
  used = 0;
  /** Called when `used` passes `limit`; may give bytes back (the journals do). */
  reclaim: (() => void) | undefined;

  constructor(readonly limit: number) {}

  /** Whether `bytes` more fit. */
  fits(bytes: number): boolean {
    return this.used + bytes <= this.limit;
  }

  take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) this.reclaim?.();
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}

/** The shared bounds of one server, in bytes. */
export interface Budgets {
  /** Journal entries of all sessions together. */
  journal: SharedBudget;
  /** Animals created in all sessions together. */
  created: SharedBudget;
  /** Cached list bodies of all sessions together. */
  listBodies: SharedBudget;
}

const MiB = 1024 * 1024;

/** Fresh shared budgets at the documented totals. */
export function defaultBudgets(): Budgets {
  return { journal: new SharedBudget(32 * MiB), created: new SharedBudget(32 * MiB), listBodies: new SharedBudget(16 * MiB) };
}

/** The heap a string of `length` UTF-16 units may hold, counted as two bytes a unit plus its header. */
export function stringBytes(length: number): number {
  return 16 + 2 * length;
}

/**
 * A copy of `text` that holds only its own characters. V8 makes a slice of 13 or more characters a
 * view into the string it was cut from, so a short piece kept from a request (a cut path, a name,
 * a header) would otherwise keep the whole request text alive, beyond what the bounds count.
 */
export function ownString(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}
