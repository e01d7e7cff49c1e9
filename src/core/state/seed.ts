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

/**
 * The English locale's pet names, the only words the seeded animals use. The build (and the test
 * config) reads them from Faker's English locale and defines them here.
 */
declare const __PETSTORE_PET_NAMES__: readonly string[];

const N = 624;
const M = 397;

/**
 * The Mersenne Twister (MT19937) with 53-bit draws, seeded with a number: the sequence Faker's
 * default randomizer gives for the same seed. The animals were always made by a seeded Faker;
 * drawing the same numbers here keeps every seed's animals while the browser build and start-up
 * carry none of Faker's code (test/core/seed.test.ts compares the two).
 */
class Twister {
  private readonly state: number[] = new Array<number>(N);
  private index = 0;

  constructor(seed: number) {
    const s = this.state;
    // The seed is kept whole in the first word, as Faker keeps it; the bit operations below read
    // it as 32 bits, so seeds past 2^32 give the same animals as they did.
    s[0] = seed;
    for (let i = 1; i < N; i++) {
      const previous = (s[i - 1] as number) ^ ((s[i - 1] as number) >>> 30);
      s[i] = Math.trunc(Math.imul(1812433253, previous) + i);
    }
    this.twist();
  }

  private twist(): void {
    const s = this.state;
    for (let i = 0; i < N; i++) {
      const y = ((s[i] as number) & 0x80000000) + ((s[(i + 1) % N] as number) & 0x7fffffff);
      s[i] = (s[(i + M) % N] as number) ^ (y >>> 1) ^ (-(y & 1) & 0x9908b0df);
    }
  }

  private next32(): number {
    let y = this.state[this.index] as number;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    if (++this.index >= N) {
      this.twist();
      this.index = 0;
    }
    return y >>> 0;
  }

  /** A number in [0, 1) with 53 random bits. */
  next(): number {
    const high = this.next32() >>> 5;
    const low = this.next32() >>> 6;
    return (high * 67108864 + low) / 9007199254740992;
  }

  /** A whole number from `min` to `max`, both included (Faker's `number.int`). */
  int(min: number, max: number): number {
    if (min === max) return min;
    return Math.floor(this.next() * (max - min + 1) + min);
  }

  /** One of `items` (Faker's `helpers.arrayElement`). */
  pick<T>(items: readonly T[]): T {
    return items[items.length > 1 ? this.int(0, items.length - 1) : 0] as T;
  }
}

/**
 * Generates `count` animals with ids 1..count from a generator of their own, so that the same
 * seed (and package version) always gives the same animals, whatever else runs.
 */
export function generatePets(seed: number, count: number): Pet[] {
  const random = new Twister(seed);
  const pets: Pet[] = new Array<Pet>(count);
  for (let i = 0; i < count; i++) {
    pets[i] = {
      id: i + 1,
      name: random.pick(__PETSTORE_PET_NAMES__),
      categoryId: random.int(1, SEEDED_CATEGORY_COUNT),
      status: random.pick(PET_STATUSES),
    };
  }
  return pets;
}
