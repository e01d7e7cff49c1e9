// The `--state` URL forms and the words of a failure, without a Redis: what the client is told to
// connect to, what any message shows of the URL, and that no client-library wording reaches an answer.
import { describe, expect, it } from 'vitest';
import { displayUrl, parseStateUrl } from '../../src/state-redis/state-url.js';
import { isScriptBug, stateFailure } from '../../src/state-redis/state-errors.js';

function replyError(message: string): Error {
  return Object.assign(new Error(message), { name: 'ReplyError' });
}

describe('--state URLs', () => {
  it.each([
    ['redis://127.0.0.1:6379/0', { kind: 'node', host: '127.0.0.1', port: 6379, db: 0, tls: false }],
    ['redis://cache.internal', { kind: 'node', host: 'cache.internal', port: 6379, db: 0, tls: false }],
    ['rediss://app:p%40ss@[::1]:6380/3', { kind: 'node', host: '::1', port: 6380, db: 3, tls: true, username: 'app', password: 'p@ss' }],
    ['redis://:secret@h:1/2', { kind: 'node', host: 'h', port: 1, db: 2, tls: false, password: 'secret' }],
    [
      'redis+sentinel://s1:26380,s2/mymaster/1',
      {
        kind: 'sentinel',
        sentinels: [
          { host: 's1', port: 26380 },
          { host: 's2', port: 26379 },
        ],
        master: 'mymaster',
        db: 1,
        tls: false,
      },
    ],
    [
      'rediss+sentinel://u:pw@s1:1/main',
      { kind: 'sentinel', sentinels: [{ host: 's1', port: 1 }], master: 'main', db: 0, tls: true, username: 'u', password: 'pw' },
    ],
  ])('%s', (url, target) => {
    expect(parseStateUrl(url)).toEqual(target);
  });

  it.each(['http://h:1', 'redis://h:99999/0', 'redis+sentinel://h:1', 'redis://h:1/x', 'redis+sentinel://:secret@/m'])(
    'refuses %s showing the forms it takes, never a password',
    (url) => {
      expect(() => parseStateUrl(url)).toThrow(/is not a Redis URL; write --state redis:\/\/.*redis\+sentinel:\/\/HOST:PORT,HOST:PORT\/MASTER_NAME\/DB/);
      expect(() => parseStateUrl(url)).not.toThrow(/secret/);
    },
  );

  it('hides the password in every form, keeping the rest as typed', () => {
    expect(displayUrl('redis://user:pa:ss@h:1/0')).toBe('redis://user:***@h:1/0');
    expect(displayUrl('rediss://:pw@h:1/0')).toBe('rediss://:***@h:1/0');
    expect(displayUrl('redis+sentinel://u:pw@a:1,b:2/m/0')).toBe('redis+sentinel://u:***@a:1,b:2/m/0');
    expect(displayUrl('redis://h:1/0')).toBe('redis://h:1/0');
    expect(displayUrl('redis://user@h:1/0')).toBe('redis://user@h:1/0');
  });
});

describe('what a Redis failure becomes', () => {
  it.each([
    ['OOM command not allowed when used memory > maxmemory.', 'oom', 'Redis is out of memory'],
    ["READONLY You can't write against a read only replica.", 'readonly', 'read-only replica'],
    ['MOVED 15991 127.0.0.1:7002', 'moved', 'moved the deployment'],
    ['ASK 15991 127.0.0.1:7002', 'moved', 'moved the deployment'],
    ['CLUSTERDOWN The cluster is down', 'cluster_down', 'Cluster is down or electing'],
    ['LOADING Redis is loading the dataset in memory', 'loading', 'loading its data set'],
    ['MASTERDOWN Link with MASTER is down', 'primary_down', 'lost its primary'],
    ['BUSY Redis is busy running a script.', 'busy', 'busy running'],
    ['WRONGPASS invalid username-password pair', 'auth', 'refused the credentials'],
    ['NOREPLICAS Not enough good replicas to write.', 'no_replicas', 'too few replicas'],
    ['WEIRD something new', 'refused', 'Redis refused the command (WEIRD)'],
  ])('%s', (message, kind, words) => {
    const failure = stateFailure(replyError(message), 1000);
    expect(failure.kind).toBe(kind);
    expect(failure.reason).toContain(words);
    expect(failure.reason).not.toContain(message);
  });

  it.each([
    ['Command timed out', 'timeout', 'no answer within the command timeout of 300 ms'],
    ['connect ECONNREFUSED 127.0.0.1:6379', 'disconnected', 'connection refused'],
    ["Stream isn't writeable and enableOfflineQueue options is false", 'disconnected', 'not connected; reconnecting'],
    ['Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option for details.', 'disconnected', 'not connected'],
    ["Cluster isn't ready and enableOfflineQueue options is false", 'cluster_down', 'no node of the Redis Cluster'],
  ])('%s', (message, kind, words) => {
    const failure = stateFailure(new Error(message), 300);
    expect(failure).toEqual({ kind, reason: expect.stringContaining(words) });
    expect(failure.reason).not.toMatch(/maxRetriesPerRequest|enableOfflineQueue|Refer to/);
  });

  it("keeps a fault of the mock's own scripts a bug", () => {
    expect(isScriptBug(replyError('ERR user_script:12: Script attempted to access nonexistent global variable'))).toBe(true);
    expect(isScriptBug(replyError('OOM command not allowed'))).toBe(false);
    expect(isScriptBug(new Error('Command timed out'))).toBe(false);
  });
});
