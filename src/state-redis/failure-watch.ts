// Decisions that keep failing for one session (a Redis error on its keys, a fault of the script)
// while the state itself answers: the health answer names them rather than saying ok.
import type { SessionFailure } from '../core/state/backend.js';

/** A session is reported after this many failed decisions in a row… */
const IN_A_ROW = 3;
/** …as long as the latest is this recent. */
const RECENT_MS = 60_000;
/** Sessions followed at once; past this the oldest record goes. */
const MAX_FOLLOWED = 1000;

interface Record {
  failures: number;
  since: number;
  last: number;
  reason: string;
}

export class FailureWatch {
  private readonly bySession = new Map<string, Record>();

  failed(sid: string, reason: string, now = Date.now()): void {
    const known = this.bySession.get(sid);
    if (known) {
      known.failures++;
      known.last = now;
      known.reason = reason;
      return;
    }
    if (this.bySession.size >= MAX_FOLLOWED) this.bySession.delete(this.bySession.keys().next().value as string);
    this.bySession.set(sid, { failures: 1, since: now, last: now, reason });
  }

  succeeded(sid: string): void {
    if (this.bySession.size > 0) this.bySession.delete(sid);
  }

  /** The sessions whose decisions fail again and again, for `GET /__admin/health`. */
  failing(now = Date.now()): SessionFailure[] {
    const out: SessionFailure[] = [];
    for (const [session, r] of this.bySession) {
      if (r.failures >= IN_A_ROW && now - r.last <= RECENT_MS) {
        out.push({ session, failures: r.failures, since: new Date(r.since).toISOString(), reason: r.reason });
      }
    }
    return out;
  }
}
