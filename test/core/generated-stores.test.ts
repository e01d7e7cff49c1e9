// Generated stores are cached for reuse, a bounded number of them: every new data.seed of a
// scenario object would otherwise hold its store for the life of the process.
import { describe, expect, it } from 'vitest';
import { GENERATED_STORES_KEPT, createDefaults } from '../../src/core/scenarios/defaults.js';

describe('the cache of generated stores', () => {
  it('gives the same store for the same seed and count, switching back and forth', () => {
    const defaults = createDefaults({});
    const a = defaults.baseFor({ seed: 1, count: 3 });
    defaults.baseFor({ seed: 2, count: 3 });
    expect(defaults.baseFor({ seed: 1, count: 3 })).toBe(a);
  });

  it(`keeps the ${GENERATED_STORES_KEPT} most recently used and lets go of older ones, however many seeds come`, () => {
    const defaults = createDefaults({});
    const first = defaults.baseFor({ seed: 0, count: 2 });
    const kept = new Map<number, unknown>();
    for (let seed = 1; seed <= 200; seed++) kept.set(seed, defaults.baseFor({ seed, count: 2 }));
    // The most recent ones are still the same objects, in any order of asking.
    for (let seed = 200; seed > 200 - GENERATED_STORES_KEPT; seed--) expect(defaults.baseFor({ seed, count: 2 })).toBe(kept.get(seed));
    // One past the bound was dropped: asked again, it is generated anew (the same animals).
    const again = defaults.baseFor({ seed: 0, count: 2 });
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(defaults.baseFor({ seed: 200 - GENERATED_STORES_KEPT, count: 2 })).not.toBe(kept.get(200 - GENERATED_STORES_KEPT));
  });

  it('keeps a store asked for again as the most recently used', () => {
    const defaults = createDefaults({});
    const hot = defaults.baseFor({ seed: 1000, count: 2 });
    for (let seed = 0; seed < 50; seed++) {
      defaults.baseFor({ seed, count: 2 });
      expect(defaults.baseFor({ seed: 1000, count: 2 })).toBe(hot);
    }
  });
});
