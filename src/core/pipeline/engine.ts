// The engine with its sessions in this process: the one pipeline over the in-memory home of state.
import type { MockError } from '../errors.js';
import { Pipeline } from './pipeline.js';
import { STAGES, type HeadInput } from './stages.js';
import type { JournalEntry } from '../state/journal.js';
import { MemoryPort } from '../state/memory-port.js';
import type { SnapshotSupport } from '../state/snapshot-support.js';
import { SessionRegistry } from '../state/sessions.js';
import type { TimeSource } from '../state/clock.js';
import type { SessionState, SessionSettings } from '../state/session-state.js';
import type { CoreRequest, CoreResponse } from '../types.js';
import { atOnce } from '../maybe.js';

/** Options of the in-memory engine; everything with side effects is passed in. */
export interface EngineOptions {
  /** The settings every session starts with (from the CLI flags or a scenario). */
  settings: SessionSettings;
  /** The real time source the virtual clocks run on; Date.now by default. */
  now?: TimeSource;
  /** How many `X-Mock-Session` sessions to keep at once. */
  maxSessions?: number;
  /** Called once per answered API request, for logs. */
  onRequest?: (entry: JournalEntry) => void;
  /** Snapshots of the sessions (the states kept before requests, for `?before=SEQ`); none in the browser build. */
  snapshots?: SnapshotSupport;
}

/**
 * Takes a plain request and returns a plain response, synchronously, with the sessions held in
 * this process: the pipeline of pipeline.ts over the in-memory home.
 */
export class MockEngine extends Pipeline<SessionState> {
  readonly sessions: SessionRegistry;

  constructor(options: EngineOptions) {
    const sessions = new SessionRegistry(options.settings, options.now ?? Date.now, options.maxSessions);
    super(new MemoryPort(sessions, options.snapshots), options.onRequest);
    this.sessions = sessions;
  }

  /** Answers one API request at once. Never throws: a bug becomes a 500 with the Error body. */
  override handle(req: CoreRequest): CoreResponse {
    return settled(super.handle(req));
  }

  override refuse(req: CoreRequest, error: MockError): CoreResponse {
    return settled(super.refuse(req, error));
  }

  /**
   * Whether the request's head settles its answer (`Expect: 100-continue`): then `handle` gives the
   * final answer without the body, and the client does not upload one that would be refused anyway.
   * Counts nothing; the answer itself is counted by `handle`. The stages are walked in their order up
   * to the first that needs the body; anything a stage could not tell from the head gets `100 Continue`.
   */
  answeredBeforeBody(req: CoreRequest): boolean {
    let state: SessionState;
    try {
      state = this.sessions.resolve(req.headers['x-mock-session']);
    } catch {
      return true;
    }
    const head: HeadInput = { state, req, now: state.clock.now() };
    for (const stage of STAGES) {
      if (stage.needsBody) return false;
      if (stage.onHead?.(head) === true) return true;
    }
    return false;
  }
}

/** The memory home decides at once, so its answers never wait. */
function settled(answer: CoreResponse | Promise<CoreResponse>): CoreResponse {
  return atOnce(answer, 'the in-memory home of state');
}
