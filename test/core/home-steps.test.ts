import { describe, expect, it } from 'vitest';
import { STAGES } from '../../src/core/pipeline/stages.js';
import { HOME_STEPS, type HomeStep } from '../../src/core/state/home-steps.js';

const stageNames: readonly string[] = STAGES.map((s) => s.name);

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

describe('the home steps: the stateful half of the order of checks', () => {
  it('lists every stage a home decides, and the operation, in the stage list’s order', () => {
    const asStages = HOME_STEPS.filter((step) => stageNames.includes(step));
    const decidedByHome = STAGES.filter((s) => s.byHome !== undefined).map((s) => s.name);
    expect(asStages).toEqual([...decidedByHome, 'operation']);
    const places = asStages.map((step) => stageNames.indexOf(step));
    expect(places).toEqual([...places].sort((a, b) => a - b));
  });

  it.each(Object.entries(READS))('puts %s after every step whose result it reads', (step, reads) => {
    for (const earlier of reads) expect(HOME_STEPS.indexOf(earlier), `${earlier} before ${step}`).toBeLessThan(HOME_STEPS.indexOf(step as HomeStep));
  });
});
