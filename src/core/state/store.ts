import { MockError, named } from '../errors.js';
import { SharedBudget, ownString, stringBytes } from './budget.js';
import type { Pet, PetStatus } from '../types.js';
import { BaseData, findById, indexByStatus, petJson } from './base-data.js';

// Small, because every session that creates animals has its own: 1,000 sessions of 400 list
// shapes each once held a gigabyte of cached bodies.
const MAX_CACHED_BODIES = 16;

/** The most animals one session may create. */
export const MAX_CREATED_PETS = 10_000;
/** The most bytes the animals one session creates may hold. */
export const MAX_CREATED_BYTES = 2 * 1024 * 1024;
/** The most bytes one session's cached list bodies may hold; a body past a quarter of it is not cached. */
export const MAX_CACHED_BODY_BYTES = 512 * 1024;
/** What a removed id counts against a session's bound in bytes, in every home: a set's entry, a field's digits. */
export const REMOVED_ID_BYTES = 16;
/** The heap of a created animal beyond its name: the object, its fields and index slots. */
const PET_OVERHEAD = 120;

/** What a created animal counts against a session's bound in bytes, in every home of state. */
export function createdPetBytes(input: { name: string; categoryId: number | bigint }): number {
  return PET_OVERHEAD + stringBytes(input.name.length) + (typeof input.categoryId === 'bigint' ? 32 : 0);
}

const RESET_HINT = 'POST /__admin/reset (with this X-Mock-Session) or reset() in the library empties it';

/** The 507 of a session's store: no id left under 2^53, or no room left in its bounds. */
export function storeFullError(why: 'id' | 'room', maxCreated = MAX_CREATED_PETS, maxBytes = MAX_CREATED_BYTES): MockError {
  if (why === 'id') {
    return new MockError(
      'store_full',
      named(
        `this session's store has no id left: the next would pass 2^53 - 1, the largest id a JSON client reads exactly. Start from fixtures with smaller ids; ${RESET_HINT}.`,
      ),
    );
  }
  return new MockError(
    'store_full',
    named(`this session's store is full: a session may create ${maxCreated} animals holding ${maxBytes / 1024 / 1024} MiB; ${RESET_HINT}.`),
  );
}

/** Limits of one session's store, and the budgets it shares with the other sessions. */
export interface StoreLimits {
  maxCreated: number;
  maxCreatedBytes: number;
  maxCachedBodyBytes: number;
  created: SharedBudget;
  listBodies: SharedBudget;
}

function defaultStoreLimits(): StoreLimits {
  return {
    maxCreated: MAX_CREATED_PETS,
    maxCreatedBytes: MAX_CREATED_BYTES,
    maxCachedBodyBytes: MAX_CACHED_BODY_BYTES,
    created: new SharedBudget(Infinity),
    listBodies: new SharedBudget(Infinity),
  };
}

/**
 * One session's store: the shared base plus the animals created in this session, less those it
 * removed. New ids follow the largest id so far, so both parts stay in id order and a list is a
 * walk over at most two arrays; a removed id is skipped, never given again. Serialised list bodies
 * are cached until the next change. What a session creates and caches is bounded in count and
 * bytes, per session and across sessions.
 */
export class PetStore {
  private created: Pet[] = [];
  private createdByStatus = indexByStatus([]);
  private nextId: number;
  private bodies = new Map<string, string>();
  private createdBytes = 0;
  /** What this store took from the shared budget for its base (a restored one; the server's own count nothing). */
  private baseBytes = 0;
  private bodyBytes = 0;
  /**
   * The ids removed in this session, of the base or created: a set beside the arrays, because the
   * base is shared and the Redis home addresses created animals by their place.
   */
  private removed = new Set<number>();

  constructor(
    private base: BaseData,
    private readonly limits: StoreLimits = defaultStoreLimits(),
  ) {
    this.nextId = base.maxId + 1;
  }

  get size(): number {
    return this.base.all.length + this.created.length - this.removed.size;
  }

  /** Drops what this session created and, when given, switches to another base. */
  reset(base: BaseData = this.base): void {
    if (base !== this.base) {
      this.limits.created.give(this.baseBytes);
      this.baseBytes = base.countedBytes;
      this.limits.created.take(this.baseBytes);
    }
    this.base = base;
    this.created = [];
    this.createdByStatus = indexByStatus([]);
    this.removed = new Set();
    this.nextId = base.maxId + 1;
    this.limits.created.give(this.createdBytes);
    this.createdBytes = 0;
    this.clearBodies();
  }

  /** What the store holds, for a snapshot: its base, the animals created, the next id, the ids removed (ascending). */
  content(): { base: BaseData; created: readonly Pet[]; nextId: number; removed: number[] } {
    return { base: this.base, created: this.created, nextId: this.nextId, removed: [...this.removed].sort((a, b) => a - b) };
  }

  /** Gives back everything this store holds against the shared budgets: its session is being dropped. */
  release(): void {
    this.reset();
    this.limits.created.give(this.baseBytes);
    this.baseBytes = 0;
  }

  /**
   * Replaces the store's content with a snapshot's, checked by `checkRestoredStore` (whose answer
   * `bytes` is) and `checkLoad`: nothing here can fail. The animals come checked (ids ascending, above the base's, below
   * `nextId`), and so do the removed ids (each one of an animal held, once).
   */
  load(base: BaseData, created: readonly Pet[], nextId: number, bytes: number, removed: readonly number[] = []): void {
    this.reset(base);
    this.removed = new Set(removed);
    for (const pet of created) {
      const copy: Pet = { ...pet, name: ownString(pet.name) };
      this.created.push(copy);
      if (copy.status) this.createdByStatus.get(copy.status)?.push(copy);
    }
    this.createdBytes = bytes;
    this.limits.created.take(bytes);
    this.nextId = nextId;
  }

  /**
   * Throws `store_full` when a load of animals counting `bytes` on `base` (`checkRestoredStore`
   * checked them against a session's bound) would pass what all sessions may hold together.
   */
  checkLoad(bytes: number, base: BaseData): void {
    // What this store holds now is given back by the reset of the load.
    const held = this.createdBytes + (base === this.base ? 0 : this.baseBytes);
    const added = bytes + (base === this.base ? 0 : base.countedBytes);
    if (!this.limits.created.fits(added - held)) throw this.serverFull('of all sessions together would pass');
  }

  /** Adds an animal; the store assigns its id. Throws `store_full` past a bound. */
  create(input: { name: string; categoryId: number | bigint; status?: PetStatus }): Pet {
    const bytes = createdPetBytes(input);
    this.checkRoom(bytes);
    // A name read from a body may be a view into the whole body's text.
    const name = ownString(input.name);
    const pet: Pet =
      input.status === undefined
        ? { id: this.nextId, name, categoryId: input.categoryId }
        : { id: this.nextId, name, categoryId: input.categoryId, status: input.status };
    this.nextId++;
    this.created.push(pet);
    if (pet.status) this.createdByStatus.get(pet.status)?.push(pet);
    this.createdBytes += bytes;
    this.limits.created.take(bytes);
    this.clearBodies();
    return pet;
  }

  private checkRoom(bytes: number): void {
    if (!Number.isSafeInteger(this.nextId)) throw storeFullError('id');
    if (this.created.length >= this.limits.maxCreated || this.createdBytes + bytes > this.limits.maxCreatedBytes) {
      throw storeFullError('room', this.limits.maxCreated, this.limits.maxCreatedBytes);
    }
    if (!this.limits.created.fits(bytes)) throw this.serverFull('created in all sessions together hold');
  }

  /** The 507 of the bound all sessions share. */
  private serverFull(held: string): MockError {
    const mib = Math.round(this.limits.created.limit / 1024 / 1024);
    return new MockError('store_full', named(`the animals ${held} the ${mib} MiB this server allows; reset sessions you no longer need (${RESET_HINT}).`));
  }

  private clearBodies(): void {
    if (this.bodies.size === 0) return;
    this.bodies.clear();
    this.limits.listBodies.give(this.bodyBytes);
    this.bodyBytes = 0;
  }

  get(id: number | bigint): Pet | undefined {
    if (typeof id === 'bigint' || this.removed.has(id)) return undefined;
    return findById(this.base.all, id) ?? findById(this.created, id);
  }

  /** The first `limit` animals in id order, optionally only those with `status`. */
  list(limit: number, status?: PetStatus): Pet[] {
    const first = status ? (this.base.byStatus.get(status) ?? []) : this.base.all;
    const second = status ? (this.createdByStatus.get(status) ?? []) : this.created;
    if (this.removed.size > 0) {
      const removed = this.removed;
      return keptFirst([first, second], (pet) => !removed.has(pet.id), limit);
    }
    const out = first.slice(0, limit);
    if (out.length < limit) out.push(...second.slice(0, limit - out.length));
    return out;
  }

  /** The serialised body of `list(limit, status)`, cached until the store changes. */
  listBody(limit: number, status?: PetStatus): string {
    const inBase = status ? (this.base.byStatus.get(status)?.length ?? 0) : this.base.all.length;
    if (this.removed.size === 0 && (this.created.length === 0 || inBase >= limit)) return this.base.listBody(limit, status);
    const cacheKey = status ? `${status}:${limit}` : `:${limit}`;
    const cached = this.bodies.get(cacheKey);
    if (cached !== undefined) return cached;
    const body = `[${this.list(limit, status).map(petJson).join(',')}]`;
    const bytes = stringBytes(body.length);
    // A body too large to cache, or no room left in the servers' cache budget: serve it uncached.
    if (bytes > this.limits.maxCachedBodyBytes / 4) return body;
    if (this.bodies.size >= MAX_CACHED_BODIES || this.bodyBytes + bytes > this.limits.maxCachedBodyBytes) this.clearBodies();
    if (!this.limits.listBodies.fits(bytes)) return body;
    this.bodies.set(cacheKey, body);
    this.bodyBytes += bytes;
    this.limits.listBodies.take(bytes);
    return body;
  }
}

/** The first `limit` items of `parts`, in order, that `kept` keeps: a page less the removed animals, in either home. */
export function keptFirst<T>(parts: readonly (readonly T[])[], kept: (item: T) => boolean, limit: number): T[] {
  const out: T[] = [];
  for (const part of parts) {
    for (const item of part) {
      if (out.length >= limit) return out;
      if (kept(item)) out.push(item);
    }
  }
  return out;
}
