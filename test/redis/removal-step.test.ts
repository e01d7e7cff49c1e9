// A request the removal date refuses (410) takes no scenario step in either home of state: the
// step stays for the next request that passes the checks, in memory and on Redis alike.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock, type SharedRunningMock } from '../../src/index.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();
const AUTH = { authorization: 'Bearer demo-pro' };

describe.skipIf(!run)('the removal date and scenario steps', () => {
  let redis: TestRedis;
  let memory: RunningMock;
  let shared: SharedRunningMock;
  const dir = mkdtempSync(join(tmpdir(), 'removal-step-'));
  const file = join(dir, 'after-removal-step.yaml');
  writeFileSync(
    file,
    [
      'description: After the removal instant, the first request that passes the checks gets a 503.',
      'clock:',
      "  start: '2031-01-01T00:00:00Z'",
      '  frozen: true',
      'steps:',
      '  - match: {}',
      '    answer: { status: 503, retryAfter: 1 }',
      '',
    ].join('\n'),
  );

  beforeAll(async () => {
    redis = await TestRedis.start();
    memory = await startMock({ scenario: file });
    shared = await startMock({ state: redis.url, statePrefix: 'removal-step', scenario: file });
  });
  afterAll(async () => {
    await memory?.close();
    await shared?.close();
    await redis?.stop();
  });

  it.each(['memory', 'redis'])('in %s: the 410 leaves the step to the next list', async (home) => {
    const url = home === 'memory' ? memory.url : shared.url;
    expect((await fetch(`${url}/pets/1`, { headers: AUTH })).status).toBe(410);
    expect((await fetch(`${url}/pets?limit=1`, { headers: AUTH })).status).toBe(503);
    expect((await fetch(`${url}/pets?limit=1`, { headers: AUTH })).status).toBe(200);
  });
});
