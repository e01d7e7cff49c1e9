// Journal entries answered but not yet written are counted per session in slots of when they are
// given up (the hash field jq, lua-library.ts): a journal read waits while a slot still counts
// one, 1.75 to 2 s after the answer at most. Held here on the Lua itself, with instants passed in,
// since Redis's clock cannot be moved; the cycle through the scripts is in failing-decision and
// shared tests.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY } from '../../src/state-redis/lua-library.js';
import { TestRedis, redisAvailable } from '../support/redis.js';

const run = redisAvailable();
/** A whole 250 ms slot: an entry answered here is given up exactly 2 s later. */
const ALIGNED = 1_790_000_000_000;

describe.skipIf(!run)('journal entries on their way, counted by slot', () => {
  let redis: TestRedis;
  let client: Redis;
  beforeAll(async () => {
    redis = await TestRedis.start();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  /** The field as written at `now`, after entries answered at each of `answered` and none landed. */
  async function waiting(field: string, answered: number[], now: number): Promise<string> {
    const lua = `${LIBRARY}
local t = pendingOf(ARGV[2] ~= '' and ARGV[2] or nil)
for i = 4, #ARGV do
  local g = pendingSlot(tonumber(ARGV[i]))
  t[g] = (t[g] or 0) + 1
end
return pendingText(t, tonumber(ARGV[3]))`;
    return String(await client.eval(lua, 0, '{jp}', field, String(now), ...answered.map(String)));
  }

  it.each([
    ['at the start of a slot', ALIGNED, 2000],
    ['1 ms into a slot', ALIGNED + 1, 1999],
    ['at the end of a slot', ALIGNED + 249, 1751],
  ])('an entry answered %s is waited for %i ms (within 1.75 to 2 s)', async (_name, at, after) => {
    expect(await waiting('', [at], at)).not.toBe('');
    expect(await waiting('', [at], at + after - 1)).not.toBe('');
    expect(await waiting('', [at], at + after)).toBe('');
  });

  it('counts the entries of one slot together, keeps the later slots and drops those past or landed', async () => {
    const slot = (at: number): number => Math.floor((at + 2000) / 250);
    const written = await waiting('', [ALIGNED, ALIGNED + 10, ALIGNED + 300], ALIGNED + 300);
    expect(written.split(',').sort()).toEqual([`${slot(ALIGNED)}:2`, `${slot(ALIGNED + 300)}:1`].sort());
    // Read back: the first slot is past at ALIGNED + 2000, the second is not.
    expect(await waiting(written, [], ALIGNED + 2000)).toBe(`${slot(ALIGNED + 300)}:1`);
    // A slot whose entries all landed (count 0) is dropped.
    expect(await waiting(`${slot(ALIGNED)}:0,${slot(ALIGNED + 300)}:1`, [], ALIGNED)).toBe(`${slot(ALIGNED + 300)}:1`);
  });
});
