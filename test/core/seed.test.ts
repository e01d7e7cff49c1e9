import { faker as english } from '@faker-js/faker/locale/en';
import type { Faker, LocaleDefinition } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { PET_STATUSES } from '../../src/core/input/openapi.js';
import { SEEDED_CATEGORY_COUNT, generatePets } from '../../src/core/state/seed.js';

type FakerConstructor = new (options: { locale: LocaleDefinition; seed?: number }) => Faker;

/** The animals a seeded Faker with the whole English locale gives: what the mock always served. */
function withEnglishLocale(seed: number, count: number) {
  const faker = new (english.constructor as FakerConstructor)({ locale: english.rawDefinitions, seed });
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: faker.animal.petName(),
    categoryId: faker.number.int({ min: 1, max: SEEDED_CATEGORY_COUNT }),
    status: faker.helpers.arrayElement(PET_STATUSES),
  }));
}

describe('generatePets without Faker at run time', () => {
  it.each([
    [42, 150],
    [7, 50],
    [0, 10],
    [123_456_789, 300],
    // Past 32 bits the seed is still kept whole in the generator's first word, as Faker keeps it.
    [2 ** 31, 20],
    [2 ** 32 + 5, 20],
    [Number.MAX_SAFE_INTEGER, 700],
  ])('gives for seed %d the %d animals of the whole English locale', (seed, count) => {
    expect(generatePets(seed, count)).toEqual(withEnglishLocale(seed, count));
  });
});
