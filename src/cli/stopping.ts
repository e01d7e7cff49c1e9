// How the command stops (docs/cli.md#stopping). One stop, however many ways it is asked for: a
// signal sent to the process group reaches the server and whatever stands between it and the
// person (npm, npx, sh, GNU timeout, which also signals the group itself); those in between may
// pass it on again or simply die. None of that may cost the drain or the --export-on-exit file.
import { named } from '../core/errors.js';
import type { CloseOptions } from '../mock-options.js';
import { watchLauncher } from './launcher.js';
import { launcherGoneLine, startFailure } from './messages.js';

/**
 * Milliseconds within which the same signal again is the same stop delivered twice (to the process
 * and to its group, or passed on by a launcher), not a person asking to hurry.
 */
export const SAME_STOP_MS = 1000;

/** What asked for a stop: a signal, or the npm process above going away. */
export type StopCause = 'SIGTERM' | 'SIGINT' | 'SIGHUP' | 'launcher';

/** The start and the end of a stop, for the JSON log. */
export type StopEvent = { event: 'stopping'; cause: StopCause; lameDuckSeconds: number; drainSeconds: number } | { event: 'stopped'; exitCode: number };

/** What a stop needs from the command. */
export interface StopSettings {
  /** Seconds of lame duck on SIGTERM (`--lame-duck-time`). */
  lameDuckTime: number;
  /** Seconds of drain (`--drain-time`): with the lame duck, how long a stop may take. */
  drainTime: number;
  /** Where the lines of a stop go (stderr). */
  log: (line: string) => void;
  /** Ends the process (process.exit). */
  exit: (code: number) => void;
  /** Told when the stop starts and just before the exit (the JSON log's events). */
  onEvent?: (event: StopEvent) => void;
  now?: () => number;
}

/**
 * Stops `close`'s server on SIGTERM (with the lame duck), SIGINT, SIGHUP and, under npm, when the
 * npm process above goes away. The first of them starts the stop: lame duck, drain, then what
 * `close` does after (the export), then exit 0 (1 if that failed). The same signal again within
 * `SAME_STOP_MS` is the same stop; any other signal, or the same one later, cuts the lame duck and
 * the drain short, and the export is still written. Returns the handler, for tests.
 */
export function stopOnSignals(close: (options: CloseOptions) => Promise<void>, settings: StopSettings): (lameDuck: number, why: StopCause) => void {
  const now = settings.now ?? Date.now;
  let started: { at: number; why: StopCause } | undefined;
  const hurry = new AbortController();
  const stop = (lameDuck: number, why: StopCause): void => {
    if (started !== undefined) {
      // The launcher dying is what a stop under npm looks like from here: nothing new to do.
      if (why === 'launcher' || hurry.signal.aborted) return;
      if (why === started.why && now() - started.at < SAME_STOP_MS) return;
      settings.log(`${named('a second signal: cutting the lame duck and the drain short; answers still in flight are cut.')}\n`);
      hurry.abort();
      return;
    }
    started = { at: now(), why };
    if (why === 'launcher') settings.log(launcherGoneLine());
    settings.onEvent?.({ event: 'stopping', cause: why, lameDuckSeconds: lameDuck, drainSeconds: settings.drainTime });
    const exit = (code: number): void => {
      settings.onEvent?.({ event: 'stopped', exitCode: code });
      settings.exit(code);
    };
    // Past the lame duck and the drain, only closing a shared state's connection is left; it must not hold the exit.
    setTimeout(() => exit(0), (lameDuck + settings.drainTime) * 1000 + 5000).unref();
    close({ lameDuck, signal: hurry.signal }).then(
      () => exit(0),
      // --export-on-exit could not write its file: said, and the exit says it failed.
      (error: unknown) => {
        settings.log(startFailure(error, 'failed while stopping'));
        exit(1);
      },
    );
  };
  return stop;
}

/** Installs the stop on the process's signals and on the npm launcher's going away. */
export function installStop(close: (options: CloseOptions) => Promise<void>, settings: StopSettings): void {
  const stop = stopOnSignals(close, settings);
  // SIGTERM is how an orchestrator (Kubernetes, docker stop, a rolling restart) stops a replica
  // that a load balancer may still send to: a lame duck first. Ctrl-C and a closed terminal do not wait.
  process.on('SIGINT', () => stop(0, 'SIGINT'));
  process.on('SIGTERM', () => stop(settings.lameDuckTime, 'SIGTERM'));
  process.on('SIGHUP', () => stop(0, 'SIGHUP'));
  // An npm/npx that was stopped and did not pass the signal on.
  watchLauncher(() => stop(0, 'launcher'));
}
