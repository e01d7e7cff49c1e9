import { describe, expect, it } from 'vitest';
import { STAGES } from '../../src/core/pipeline/stages.js';
import { CHECK_ORDER, HOME_STEPS, STAGE_ORDER, type HomeStep } from '../../src/core/check-order.js';

/**
 * What each step reads of the earlier ones, in both homes (memory-port.ts, home-steps-lua.ts):
 * moved before one of these, the in-memory home would skip its work silently and every Redis
 * decision would fail on an undefined name.
 */
const READS: Record<HomeStep, readonly HomeStep[]> = {
  removal: [],
  // Whether the limit may refuse: not once the operation is removed.
  limit: ['removal'],
  // Only a request the limit allowed takes its step or chaos draw.
  scenario: ['limit'],
  // Only a forced 429 gives its quota back.
  refund: ['scenario'],
  // Only an allowed request nothing forced runs.
  operation: ['limit', 'scenario'],
  latency: [],
};

describe('the order of checks, written once (core/check-order.ts)', () => {
  it('gives the pipeline its stages and the homes their steps, each in the one order', () => {
    expect(STAGES.map((s) => s.name)).toEqual(STAGE_ORDER);
    expect(STAGE_ORDER).toEqual(['preflight', 'route', 'removal', 'auth', 'limit', 'scenario', 'media-type', 'body-size', 'validation', 'operation']);
    expect(HOME_STEPS).toEqual(['removal', 'limit', 'scenario', 'refund', 'operation', 'latency']);
    expect(CHECK_ORDER.every((c) => c.stage || c.home)).toBe(true);
  });

  it('marks for the homes exactly the stages the pipeline asks a home to decide, and the operation', () => {
    const decidedByHome = STAGES.filter((s) => s.byHome !== undefined).map((s) => s.name);
    expect(CHECK_ORDER.filter((c) => c.stage && c.home).map((c) => c.name)).toEqual([...decidedByHome, 'operation']);
  });

  it.each(Object.entries(READS))('puts %s after every step whose result it reads', (step, reads) => {
    for (const earlier of reads) expect(HOME_STEPS.indexOf(earlier), `${earlier} before ${step}`).toBeLessThan(HOME_STEPS.indexOf(step as HomeStep));
  });
});
