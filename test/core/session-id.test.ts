// Which session an X-Mock-Session header names, including the shapes a header bag can take.
import { describe, expect, it } from 'vitest';
import { MockError } from '../../src/core/errors.js';
import { sessionIdOf } from '../../src/core/state/sessions.js';

describe('sessionIdOf', () => {
  it.each([
    ['no header', undefined, 'default'],
    ['an empty list (no header was sent)', [], 'default'],
    ['one id', 'worker-1', 'worker-1'],
    ['one id in a list', ['worker-1'], 'worker-1'],
    ['the default id', 'default', 'default'],
  ])('%s (%j) names the session %s', (_what, header, id) => {
    expect(sessionIdOf(header)).toBe(id);
  });

  it.each([
    ['two ids', ['a', 'b'], 'more than once'],
    ['an id with a space', 'a b', '1 to 128 characters'],
  ])('%s is refused as invalid_session', (_what, header, message) => {
    expect(() => sessionIdOf(header)).toThrow(MockError);
    expect(() => sessionIdOf(header)).toThrow(message);
  });
});
