import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PetStore } from '../../src/core/state/store.js';
import { BaseData, petJson } from '../../src/core/state/base-data.js';
import type { Pet, PetStatus } from '../../src/core/types.js';
import { at } from '../support/checked.js';

const STATUSES: (PetStatus | undefined)[] = [undefined, 'available', 'pending', 'sold'];
const base: Pet[] = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, name: `P${i + 1}`, categoryId: 1, ...(i % 4 ? { status: STATUSES[i % 4] } : {}) }));

describe('cached list bodies', () => {
  it('always equal the serialised list, whichever cache serves them, across sessions sharing a base', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('create' as const), store: fc.nat({ max: 2 }), status: fc.constantFrom(...STATUSES) }),
      fc.record({
        kind: fc.constant('list' as const),
        store: fc.nat({ max: 2 }),
        limit: fc.integer({ min: 1, max: 20 }),
        status: fc.constantFrom(...STATUSES),
      }),
      fc.record({ kind: fc.constant('reset' as const), store: fc.nat({ max: 2 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const shared = new BaseData(base);
        const stores = [new PetStore(shared), new PetStore(shared), new PetStore(shared)];
        for (const o of ops) {
          const store = at(stores, o.store);
          if (o.kind === 'create') store.create({ name: 'N', categoryId: 2, ...(o.status ? { status: o.status } : {}) });
          else if (o.kind === 'reset') store.reset();
          else expect(store.listBody(o.limit, o.status)).toBe(`[${store.list(o.limit, o.status).map(petJson).join(',')}]`);
        }
      }),
      { numRuns: 200 },
    );
  });
});
