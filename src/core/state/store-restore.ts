// What a restored snapshot's animals count against a session's store: the animals it created and,
// when its base is not one the server holds already, the base's too. The same in every home.
import { MockError, named } from '../errors.js';
import type { Pet } from '../types.js';
import { MAX_CREATED_BYTES, MAX_CREATED_PETS, REMOVED_ID_BYTES, createdPetBytes } from './store.js';
import { BaseData } from './base-data.js';

/** A snapshot's base as a session holds it, counted against that session's store bound. */
export function restoredBase(pets: readonly Pet[]): BaseData {
  return new BaseData(
    pets,
    pets.reduce((sum, pet) => sum + createdPetBytes(pet), 0),
  );
}

/**
 * Checks a restore's animals against a session's store bound: those created, the ids removed and,
 * when the base is one the server did not hold already, the base's too. Returns the bytes of the
 * created animals and removed ids; throws `store_full` (507) naming the bound, before anything
 * changes. The same in every home of state.
 */
export function checkRestoredStore(base: BaseData, created: readonly Pet[], removed = 0): number {
  const bytes = created.reduce((sum, pet) => sum + createdPetBytes(pet), removed * REMOVED_ID_BYTES);
  const basePets = base.countedBytes > 0 ? base.all.length : 0;
  const total = bytes + base.countedBytes;
  if (created.length + basePets > MAX_CREATED_PETS || total > MAX_CREATED_BYTES) {
    const held =
      basePets > 0
        ? `its ${created.length} created animals and the ${basePets} of its base (a base this server does not hold)`
        : `its ${created.length} created animals`;
    const ids = removed > 0 ? ` and ${removed} removed ids` : '';
    throw new MockError(
      'store_full',
      named(
        `the snapshot does not fit a session's store: ${held}${ids} hold ${(total / 1024 / 1024).toFixed(2)} MiB, and a session's store holds ${MAX_CREATED_PETS} animals and ${MAX_CREATED_BYTES / 1024 / 1024} MiB; restore it into a server started with its animals (--fixtures), or take it with fewer.`,
      ),
    );
  }
  return bytes;
}
