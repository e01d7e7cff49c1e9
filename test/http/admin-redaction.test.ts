import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { adminCall, type ErrorJson } from '../support/admin.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ keys: ['qa-tester-key-0123:free:3:100'] });
});
afterAll(() => mock.close());

describe('keys are shown redacted wherever they are shown', () => {
  it('GET /__admin/keys shows a --key key as the banner and the journal do; the public demo keys whole', async () => {
    await fetch(`${mock.url}/pets/1`, { headers: { authorization: 'Bearer qa-tester-key-0123' } });
    const keys = (await adminCall<{ key: string }[]>(mock.origin, 'keys')).json.map((k) => k.key);
    expect(keys).toEqual(['demo-free', 'demo-pro', 'demo-business', 'demo-enterprise', 'qa-t…123']);
    const journal = (await adminCall<{ key: string }[]>(mock.origin, 'requests')).json;
    expect(journal.map((e) => e.key)).toEqual(['qa-t…123']);
    const page = await (await fetch(`${mock.origin}/__admin/keys`)).text();
    expect(page).not.toContain('qa-tester-key-0123');
  });
});

describe('admin bodies nested past 64 levels', () => {
  it.each([
    ['{"set": …} 5,000 deep', `{"set":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`],
    ['an array 30,000 deep', `${'['.repeat(30_000)}${']'.repeat(30_000)}`],
    ['65 levels', `{"set":${'['.repeat(64)}${']'.repeat(64)}}`],
  ])('POST /__admin/clock with %s -> 400 admin_invalid_request, the clock untouched', async (_what, body) => {
    mock.clock.freeze();
    const before = mock.clock.now().getTime();
    const res = await adminCall<ErrorJson>(mock.origin, 'clock', { method: 'POST', body });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: 'admin_invalid_request',
      status: 400,
      message: 'petstore-mock: admin request bodies nest at most 64 levels deep; send a flat JSON object.',
    });
    expect(mock.clock.now().getTime()).toBe(before);
    mock.clock.unfreeze();
  });

  it('64 levels are read, and a wrong "set" is named without printing it', async () => {
    const res = await adminCall<ErrorJson>(mock.origin, 'clock', { method: 'POST', body: `{"set":${'['.repeat(63)}${']'.repeat(63)}}` });
    expect(res.status).toBe(400);
    expect(res.json.message).toContain('not an array.');
  });
});
