// One replica's membership of a deployment (docs/scale-out.md): the identity it must share, the
// join, the heartbeat, and what happens when the world it joined is gone from Redis.
import { KeyIds } from '../core/state/key-id.js';
import { randomBytes } from 'node:crypto';
import { UserError } from '../core/errors.js';
import { INSTANCE } from '../instance.js';
import type { StateConnection } from './connection.js';
import { stateUnavailable } from './state-errors.js';
import { displayUrl } from './state-url.js';
import { absentKey, initKey } from './keys.js';
import { callNamed, type JoinAnswer } from './script-io.js';

/** The deployment's record, and the absent key every call declares. */
function recordKeys(prefix: string): string[] {
  return [`${prefix}:deploy`, `${prefix}:replicas`, absentKey(prefix)];
}

/** One field of a deployment's identity (identity.ts). */
export interface IdentityField {
  field: string;
  /** The flag or option a person changes to make replicas agree. */
  flag: string;
  /** How a refusal says it differs, when not "another FLAG". */
  differs?: string;
  value: string;
  /** Shown in a refusal; a secret shows only whether it is set. */
  shown: string;
  secret?: boolean;
}

/** How long a deployment outlives its last heartbeat; replicas beat every third of it. */
export const DEFAULT_HEARTBEAT_EXPIRY_MS = 30_000;

/** A start refused because the deployment in Redis was started with other settings. */
export class DeploymentMismatch extends UserError {
  override name = 'DeploymentMismatch';
}

let replicas = 0;

/** Removes a deployment's keys in steps; unless forced, only while no replica keeps it alive (`live` then says how many do). */
export async function clearDeployment(conn: StateConnection, prefix: string, mode: 'stale' | 'force'): Promise<{ live: number; deleted: number }> {
  let cursor = '0';
  let deleted = 0;
  for (;;) {
    const [next, found] = await conn.scanDeployment(prefix, cursor);
    const record = recordKeys(prefix);
    const keys = [...record, ...found.filter((key) => !record.includes(key))];
    const reply = await callNamed(conn, 'petClear', keys, prefix, { mode, last: next === '0' });
    if (reply.status === 'live') return { live: reply.live, deleted };
    deleted += reply.deleted;
    if (next === '0') return { live: 0, deleted };
    cursor = next;
  }
}

export class Deployment {
  /** The world this replica joined; it never founds another on its own. */
  private world = '';
  /**
   * The deployment's key ids, salted with its world: a random id its founder drew that every replica
   * shares and no answer shows, and that changes only with the world (whose journals go with it).
   */
  keyIds = new KeyIds('');
  private joining: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Names this replica in `{P}:replicas`; the second mock of a process gets `#2`, and so on. */
  readonly replica = ++replicas === 1 ? INSTANCE : `${INSTANCE}#${replicas}`;

  constructor(
    private readonly conn: StateConnection,
    private readonly prefix: string,
    private readonly identity: readonly IdentityField[],
    private readonly init: string,
    private readonly expiryMs = DEFAULT_HEARTBEAT_EXPIRY_MS,
  ) {}

  /** Refuses a replica that differs from a live deployment, writing nothing. */
  async check(): Promise<void> {
    const reply = await this.call('check');
    this.settle(reply);
    // A live deployment's key ids are known before this replica joins it: a request answered
    // between the server's start and the join is journaled with the deployment's ids.
    if (reply.world) this.keyIds = new KeyIds(reply.world);
  }

  /**
   * Joins the deployment (founding it when none is alive), then keeps it alive. Called again when
   * Redis answers that the deployment's record is missing: a replica that had joined then stops
   * serving rather than found a new world where ids and quotas would start over.
   */
  join(): Promise<void> {
    this.joining ??= this.joinOnce().finally(() => {
      this.joining = undefined;
    });
    return this.joining;
  }

  private async joinOnce(): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const reply = await this.call('join');
      if (reply.status !== 'stale') {
        this.settle(reply);
        this.world = reply.world ?? '';
        this.keyIds = new KeyIds(this.world);
        this.beat();
        return;
      }
      // An ended deployment with other settings: its data goes before the new world starts.
      await clearDeployment(this.conn, this.prefix, 'stale');
    }
    throw new UserError(`the deployment under the prefix ${this.prefix} kept changing while this replica joined it; start it again.`);
  }

  /** Stops the heartbeat and leaves. */
  async leave(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.world === '') return;
    await callNamed(this.conn, 'petLeave', recordKeys(this.prefix), this.prefix, { replica: this.replica }).catch(() => undefined);
  }

  /**
   * One heartbeat now (the health answer must fail while the state cannot take a write). Says
   * whether this replica alone shows the deployment's gauges, so that `sum()` counts them once.
   */
  async heartbeat(): Promise<boolean> {
    if (this.world === '') return false;
    const reply = await this.call('join');
    this.settle(reply);
    return reply.reporter === true;
  }

  private beat(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      // A failed beat is an outage the answers already report; the deployment outlives a few.
      this.heartbeat().catch(() => undefined);
    }, this.expiryMs / 3);
    this.timer.unref();
  }

  private call(mode: 'check' | 'join'): Promise<JoinAnswer> {
    return callNamed(this.conn, 'petJoin', [...recordKeys(this.prefix), initKey(this.prefix, 'start')], this.prefix, {
      replica: this.replica,
      expiryMs: this.expiryMs,
      joined: this.world,
      fresh: randomBytes(8).toString('hex'),
      init: this.init,
      mode,
      fields: this.identity.map(({ field, value, shown }) => ({ field, value, shown })),
    });
  }

  /** A refusal as the error a person reads; a lost world stops this replica for good. */
  private settle(reply: JoinAnswer): void {
    const { status } = reply;
    if (status === 'ok') return;
    if (status === 'differs') throw this.mismatch(reply.field ?? '', reply.shown ?? '');
    const why =
      status === 'replaced'
        ? 'another world was started under its prefix since (a replica with other settings, after this one lost touch)'
        : 'Redis no longer holds it (it restarted without its data, a failover lost it, or it was cleared)';
    const error = stateUnavailable(
      `petstore-mock cannot use its shared state at ${displayUrl(this.conn.url)}: the deployment ${this.prefix} this replica joined is gone, as ${why}. ` +
        'This replica does not start a new world on its own, so no id is handed out twice and no quota starts over: restart it to join the deployment Redis holds now.',
    );
    this.conn.stop(error);
    clearInterval(this.timer);
    throw error;
  }

  private mismatch(field: string, held: string): DeploymentMismatch {
    const mine = this.identity.find((f) => f.field === field);
    const flag = mine?.flag ?? field;
    const values = mine?.secret
      ? held === mine.shown
        ? 'the deployment was started with another one'
        : `the deployment was started ${held}, this replica ${mine.shown}`
      : field === 'keys'
        ? keysDiffer(held, mine?.shown ?? '')
        : `the deployment has ${held === '' ? 'none' : held}, this replica ${mine?.shown ?? '?'}`;
    return new DeploymentMismatch(
      `the deployment under the prefix ${this.prefix} in ${displayUrl(this.conn.url)} was started with ${mine?.differs ?? `another ${flag}`} than this replica (${values}); ` +
        `start every replica with the same ${flag}, give this one its own --state-prefix, or stop the deployment's replicas first ` +
        `(a new one may then start with other settings) or run petstore-mock state clear.`,
    );
  }
}

/** Two key lists told apart by what only one of them has (keys are shown redacted). */
function keysDiffer(held: string, mine: string): string {
  const theirs = new Set(held.split(' '));
  const ours = new Set(mine.split(' '));
  const only = (a: Set<string>, b: Set<string>): string => [...a].filter((k) => !b.has(k)).join(' ') || 'nothing';
  return `the deployment has ${only(theirs, ours)} where this replica has ${only(ours, theirs)}`;
}
