import { describe, expect, it } from 'vitest';
import { andThen, atOnce, mapFailure, thenBoth } from '../../src/core/maybe.js';

// The one way sync and async values are handled: a value given at once stays at once (an
// in-memory answer never waits for a microtask), a promise is followed.
describe('values at once or later (core/maybe.ts)', () => {
  it('goes on at once with a value at once, and with a promise once it settles', async () => {
    expect(andThen(2, (x) => x + 1)).toBe(3);
    const later = andThen(Promise.resolve(2), (x) => x + 1);
    expect(later).toBeInstanceOf(Promise);
    await expect(later).resolves.toBe(3);
  });

  it('hands a rejection to `failed`, and leaves it a rejection without one', async () => {
    await expect(
      andThen(
        Promise.reject(new Error('no')),
        () => 'ok',
        (e) => `failed: ${(e as Error).message}`,
      ),
    ).resolves.toBe('failed: no');
    await expect(andThen(Promise.reject(new Error('no')), () => 'ok')).rejects.toThrow('no');
    expect(
      andThen(
        1,
        () => 'ok',
        () => 'failed',
      ),
    ).toBe('ok');
  });

  it('flattens a next step that answers with a promise', async () => {
    await expect(andThen(1, (x) => Promise.resolve(x * 10))).resolves.toBe(10);
  });

  it('joins two values at once when both are at hand, else waits for both', async () => {
    expect(thenBoth(1, 2, (a, b) => a + b)).toBe(3);
    await expect(thenBoth(1, Promise.resolve(2), (a, b) => a + b)).resolves.toBe(3);
  });

  it('maps a failure thrown at once and one rejected later alike', async () => {
    const map = (e: unknown): Error => new RangeError(`mapped ${(e as Error).message}`);
    expect(() =>
      mapFailure(() => {
        throw new Error('now');
      }, map),
    ).toThrow(RangeError);
    await expect(mapFailure(() => Promise.reject(new Error('later')), map)).rejects.toThrow('mapped later');
    expect(mapFailure(() => 5, map)).toBe(5);
  });

  it('refuses a promise where a value at once is owed, naming who broke it', () => {
    expect(atOnce(4, 'memory')).toBe(4);
    const pending = Promise.resolve(4);
    expect(() => atOnce(pending, 'the in-memory home')).toThrow('unreachable: the in-memory home answered with a promise');
  });
});
