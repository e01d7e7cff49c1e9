// The animals a server starts with (the base every session shares) and how an animal is written
// as JSON: read by the store (store.ts), the settings and both homes' operations.
import { PET_STATUSES } from '../input/openapi.js';
import type { Pet, PetStatus } from '../types.js';

/**
 * The animals a server starts with, shared read-only by every session, sorted by id with one
 * index per status, so that a list costs O(limit) and a new session costs nothing to create.
 */
export class BaseData {
  readonly all: readonly Pet[];
  readonly byStatus: ReadonlyMap<PetStatus, readonly Pet[]>;
  readonly maxId: number;
  /**
   * List bodies of the base alone, shared by every session whose list does not reach past it: one
   * per (status, limit) pair, however many sessions ask.
   */
  private readonly bodies = new Map<string, string>();

  /** @param countedBytes what these animals count against a session's store: 0 for the server's own, shared by every session (store-restore.ts). */
  constructor(
    pets: readonly Pet[],
    readonly countedBytes = 0,
  ) {
    const sorted = isSortedById(pets) ? pets : [...pets].sort((a, b) => a.id - b.id);
    this.all = sorted;
    this.byStatus = indexByStatus(sorted);
    this.maxId = sorted.at(-1)?.id ?? 0;
  }

  /** The serialised first `limit` animals of the base, optionally only those with `status`. */
  listBody(limit: number, status?: PetStatus): string {
    const cacheKey = status ? `${status}:${limit}` : `:${limit}`;
    let body = this.bodies.get(cacheKey);
    if (body === undefined) {
      body = `[${(status ? (this.byStatus.get(status) ?? []) : this.all).slice(0, limit).map(petJson).join(',')}]`;
      this.bodies.set(cacheKey, body);
    }
    return body;
  }
}

function isSortedById(pets: readonly Pet[]): boolean {
  let previous = -Infinity;
  for (const pet of pets) {
    if (pet.id <= previous) return false;
    previous = pet.id;
  }
  return true;
}

export function indexByStatus(pets: readonly Pet[]): Map<PetStatus, Pet[]> {
  const index = new Map<PetStatus, Pet[]>(PET_STATUSES.map((s) => [s, []]));
  for (const pet of pets) if (pet.status) index.get(pet.status)?.push(pet);
  return index;
}

/** Finds a pet by id in an id-sorted array. */
export function findById(pets: readonly Pet[], id: number): Pet | undefined {
  let lo = 0;
  let hi = pets.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    // lo <= mid <= hi < pets.length, so there is a pet at mid.
    const pet = pets[mid]!;
    const midId = pet.id;
    if (midId === id) return pet;
    if (midId < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** Serialises one animal; categoryId may be a bigint, which JSON.stringify cannot write. */
export function petJson(pet: Pet): string {
  let out = `{"id":${pet.id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId}`;
  if (pet.status !== undefined) out += `,"status":"${pet.status}"`;
  return out + '}';
}
