import { describe, expect, it } from 'vitest';
import { STAGES } from '../../src/core/pipeline/stages.js';
import { HOME_STEPS } from '../../src/core/state/home-steps.js';
import { API_SCRIPT } from '../../src/state-redis/api-script.js';

const stageNames: readonly string[] = STAGES.map((s) => s.name);

describe('the home steps: the stateful half of the order of checks', () => {
  it('lists every stage a home decides, and the operation, in the stage list’s order', () => {
    const asStages = HOME_STEPS.filter((step) => stageNames.includes(step));
    const decidedByHome = STAGES.filter((s) => s.byHome !== undefined).map((s) => s.name);
    expect(asStages).toEqual([...decidedByHome, 'operation']);
    const places = asStages.map((step) => stageNames.indexOf(step));
    expect(places).toEqual([...places].sort((a, b) => a - b));
  });

  it('is walked by the Redis home’s script in the same order, each step once', () => {
    const marks = [...API_SCRIPT.matchAll(/-- step: ([a-z-]+)/g)].map((m) => m[1]);
    expect(marks).toEqual([...HOME_STEPS]);
  });
});
