// What the scripts other than the API's and the admin's take and answer, by name: each takes the
// key prefix as ARGV[1] and one JSON object as ARGV[2], and answers one JSON object, so a field
// added later is a name on both sides rather than a position to keep in step. Each mock version
// calls its own scripts (named by their code's digest), so the shared-state format (identity.ts)
// moves only when what the scripts store does.
import type { StateConnection } from './connection.js';
import type { Run } from './journal-runs.js';

/** The join and heartbeat script's input (JOIN_SCRIPT). */
export interface JoinInput {
  replica: string;
  /** The heartbeat's expiry. */
  expiryMs: number;
  /** The world this replica joined before; '' on a first start. */
  joined: string;
  /** The world id to found when no deployment exists. */
  fresh: string;
  /** The start settings' init, stored for the sessions. */
  init: string;
  /** `check` writes nothing. */
  mode: 'check' | 'join';
  /** The identity's fields, in order: value, and what a message shows of it. */
  fields: { field: string; value: string; shown: string }[];
}

/** The join script's answer: `world` with ok, replaced (else ''); `field` and `shown` with differs. */
export interface JoinAnswer {
  status: 'ok' | 'differs' | 'stale' | 'lost' | 'replaced';
  world?: string;
  /** With ok on a join: whether this replica's id is the first of the live ones (it alone shows the deployment's gauges). */
  reporter?: boolean;
  field?: string;
  shown?: string;
}

/** The leave script's input (LEAVE_SCRIPT) and answer: how many replicas are still alive. */
export interface LeaveInput {
  replica: string;
}
export interface LeaveAnswer {
  live: number;
}

/** One step of removing a deployment (CLEAR_SCRIPT): `stale` only while no replica is alive; `last` when the SCAN ended, so the record goes too. */
export interface ClearInput {
  mode: 'stale' | 'force';
  last: boolean;
}
/** Refused (`live` replicas keep it) or done (`deleted` keys). */
export type ClearAnswer = { status: 'live'; live: number } | { status: 'deleted'; deleted: number };

/** The settings script's input (SETTINGS_SCRIPT): a put carries the scenario and its init. */
export type SettingsInput = { action: 'get'; id: string } | { action: 'put'; id: string; scenario: string; init: string };
/** `text`: the stored scenario, on a get, when Redis holds it. */
export interface SettingsAnswer {
  status: 'ok';
  text?: string;
}

/** The journal flush's input (JOURNAL_BODY) and answer: how many runs it took. */
export interface JournalInput {
  runs: Run[];
}
export interface JournalAnswer {
  status: 'ok';
  runs: number;
}

/** Each script's input and answer. */
interface NamedScripts {
  petJoin: [JoinInput, JoinAnswer];
  petLeave: [LeaveInput, LeaveAnswer];
  petClear: [ClearInput, ClearAnswer];
  petSettings: [SettingsInput, SettingsAnswer];
  petJournal: [JournalInput, JournalAnswer];
}

/**
 * Calls a script with its input as one JSON object after the prefix (then `texts`, which stay
 * positional: see JOURNAL_BODY) and reads its one JSON answer.
 */
export async function callNamed<S extends keyof NamedScripts>(
  conn: StateConnection,
  script: S,
  keys: string[],
  prefix: string,
  input: NamedScripts[S][0],
  texts: string[] = [],
): Promise<NamedScripts[S][1]> {
  return JSON.parse(String(await conn.run(script, keys, [prefix, JSON.stringify(input), ...texts]))) as NamedScripts[S][1];
}
