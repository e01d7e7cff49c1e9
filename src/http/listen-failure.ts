import { UserError } from '../core/errors.js';

/** A port or host the server cannot listen on: something the person can change. */
export class ListenError extends UserError {
  override name = 'ListenError';
  constructor(
    reason: string,
    /** The system's code: EADDRINUSE, EACCES, EADDRNOTAVAIL or ENOTFOUND. */
    readonly code: string,
  ) {
    super(reason);
  }
}

/**
 * The error a failed listen rejects with: the usual causes as a `ListenError` that says what to
 * do (for `startMock` callers and the CLI alike), anything else as it came.
 */
export function listenFailure(error: unknown, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EADDRINUSE':
      return new ListenError(
        `port ${port} on ${host} is already in use; stop the other server or pass --port 0 (port: 0 to startMock) to take a free port.`,
        code,
      );
    case 'EACCES':
      return new ListenError(`not allowed to listen on port ${port}; pick a port above 1023, or 0 for a free one (--port, or port in startMock).`, code);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new ListenError(`cannot listen on host ${host}; use 127.0.0.1 or an address of this machine (--host, or host in startMock).`, code);
    default:
      return error;
  }
}
