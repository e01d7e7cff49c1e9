import { faker as baseFaker } from '@faker-js/faker/locale/base';
import type { Faker, LocaleDefinition } from '@faker-js/faker';
import { PET_STATUSES } from '../input/openapi.js';
import type { Pet } from '../types.js';

/** The seed used when none is given, so that two plain starts serve the same animals. */
export const DEFAULT_SEED = 42;
/**
 * The store size when none is given: more than the default page of 20, so `limit` visibly
 * matters, and fewer than the largest page of 100, so that `GET /v1/pets?limit=100` also shows
 * the animals a client creates (the specification has no other paging).
 */
export const DEFAULT_PET_COUNT = 50;
/** Categories the seeded animals are spread over. */
export const SEEDED_CATEGORY_COUNT = 12;

type FakerConstructor = new (options: { locale: LocaleDefinition | LocaleDefinition[]; seed?: number }) => Faker;

/**
 * The English locale's pet names, the only words the seeded animals use. The build (and the test
 * config) reads them from Faker's English locale and defines them here, so that start-up parses
 * Faker's base locale alone instead of the whole English one, about 10 ms less.
 */
declare const __PETSTORE_PET_NAMES__: readonly string[];

/**
 * Generates `count` animals with ids 1..count from a Faker instance of their own, so that the
 * same seed (and package version) always gives the same animals, whatever else runs.
 */
export function generatePets(seed: number, count: number): Pet[] {
  // Only the base locale is imported (the full package costs ~130 ms at start-up, the English
  // locale ~20 ms); its instance's class makes the private, seeded instance. The seeded sequence
  // does not depend on the locale, so the animals are those the English locale would give.
  const FakerClass = baseFaker.constructor as FakerConstructor;
  const faker = new FakerClass({ locale: [{ animal: { pet_name: [...__PETSTORE_PET_NAMES__] } }, baseFaker.rawDefinitions], seed });
  const pets: Pet[] = new Array<Pet>(count);
  for (let i = 0; i < count; i++) {
    pets[i] = {
      id: i + 1,
      name: faker.animal.petName(),
      categoryId: faker.number.int({ min: 1, max: SEEDED_CATEGORY_COUNT }),
      status: faker.helpers.arrayElement(PET_STATUSES),
    };
  }
  return pets;
}
