import { describe, expect, it } from 'vitest';
import { ListenError, listenFailure } from '../../src/http/listen-failure.js';

const system = (code: string): Error => Object.assign(new Error(`listen ${code}`), { code });

describe('a listen that failed', () => {
  it.each([
    [
      'EADDRINUSE',
      'petstore-mock: port 4010 on 127.0.0.1 is already in use; stop the other server or pass --port 0 (port: 0 to startMock) to take a free port.',
    ],
    ['EACCES', 'petstore-mock: not allowed to listen on port 4010; pick a port above 1023, or 0 for a free one (--port, or port in startMock).'],
    ['EADDRNOTAVAIL', 'petstore-mock: cannot listen on host 127.0.0.1; use 127.0.0.1 or an address of this machine (--host, or host in startMock).'],
    ['ENOTFOUND', 'petstore-mock: cannot listen on host 127.0.0.1; use 127.0.0.1 or an address of this machine (--host, or host in startMock).'],
  ])('%s becomes a ListenError that says what to do', (code, message) => {
    const error = listenFailure(system(code), 4010, '127.0.0.1');
    expect(error).toBeInstanceOf(ListenError);
    expect((error as ListenError).message).toBe(message);
    expect((error as ListenError).code).toBe(code);
  });

  it('anything else is passed on as it came', () => {
    const other = system('EMFILE');
    expect(listenFailure(other, 4010, '127.0.0.1')).toBe(other);
  });
});
