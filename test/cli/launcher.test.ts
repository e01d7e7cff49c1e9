import { describe, expect, it } from 'vitest';
import { launcherGone, parentOf, startedByNpm } from '../../src/cli/launcher.js';

describe('the launcher watch', () => {
  it.each([
    [{ parent: 10, grandparent: 5 }, { parent: 10, grandparent: 5 }, false],
    [{ parent: 10, grandparent: 5 }, { parent: 1, grandparent: undefined }, true],
    [{ parent: 10, grandparent: 5 }, { parent: 10, grandparent: 1 }, true],
    [{ parent: 10, grandparent: undefined }, { parent: 10, grandparent: undefined }, false],
    [{ parent: 10, grandparent: undefined }, { parent: 7, grandparent: undefined }, true],
  ])('started under %j, now %j: gone = %s', (start, now, gone) => {
    expect(launcherGone(start, now)).toBe(gone);
  });

  it.each([
    [{ npm_command: 'exec', npm_lifecycle_event: 'npx' }, true],
    [{ npm_lifecycle_event: 'start' }, true],
    [{ PATH: '/usr/bin' }, false],
  ])('env %j means started by npm: %s', (env, npm) => {
    expect(startedByNpm(env)).toBe(npm);
  });

  it.runIf(process.platform === 'linux')('reads a parent pid from /proc', () => {
    expect(parentOf(process.pid)).toBe(process.ppid);
    expect(parentOf(2 ** 22 + 12345)).toBeUndefined();
  });
});
