// What a failed Redis command becomes: a 503 `state_unavailable` in the mock's own words. The
// client library's messages (its option names, its retry counters) never reach an answer; only a
// fault in the mock's own scripts stays a bug (500).
import { MockError } from '../core/errors.js';
import { displayUrl } from './state-url.js';

/** A short name of the failure, for the metrics, and what to tell the person reading the answer. */
export interface StateFailure {
  kind: string;
  reason: string;
}

/** Seconds a client should wait before retrying a request the shared state could not serve. */
export const RETRY_AFTER_SECONDS = 1;

const REPLY_ERRORS: [RegExp, StateFailure][] = [
  [/^OOM\b/, { kind: 'oom', reason: 'Redis is out of memory (maxmemory reached, and its policy evicts nothing); free memory or raise maxmemory there' }],
  [/^READONLY\b/, { kind: 'readonly', reason: 'Redis answered as a read-only replica, so the primary moved (a failover); reconnecting to the primary' }],
  [/^(MOVED|ASK)\b/, { kind: 'moved', reason: "the cluster moved the deployment's slot to another node; following it" }],
  [/^(CLUSTERDOWN|TRYAGAIN)\b/, { kind: 'cluster_down', reason: 'the Redis Cluster is down or electing a new primary' }],
  [/^LOADING\b/, { kind: 'loading', reason: 'Redis is loading its data set into memory' }],
  [/^MASTERDOWN\b/, { kind: 'primary_down', reason: 'the Redis replica answering lost its primary' }],
  [/^BUSY\b/, { kind: 'busy', reason: 'Redis is busy running a long script' }],
  [/^(NOAUTH|WRONGPASS|NOPERM)\b/, { kind: 'auth', reason: 'Redis refused the credentials of the URL (user, password or permissions)' }],
  [/^NOREPLICAS\b/, { kind: 'no_replicas', reason: 'Redis refuses writes: too few replicas are in sync (min-replicas-to-write)' }],
];

/** Whether an error is a fault of the mock's own Lua (a bug to report, not an outage). */
export function isScriptBug(error: unknown): boolean {
  return error instanceof Error && error.name === 'ReplyError' && /^ERR .*(user_script|script:|Error running script)/.test(error.message);
}

/** The failure an error of the Redis client stands for, described without the client's words. */
export function stateFailure(error: unknown, timeoutMs: number): StateFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.name === 'ReplyError') {
    for (const [pattern, failure] of REPLY_ERRORS) if (pattern.test(message)) return failure;
    const code = /^[A-Z]+/.exec(message)?.[0] ?? 'ERR';
    return { kind: 'refused', reason: `Redis refused the command (${code})` };
  }
  if (/timed? ?out/i.test(message)) return { kind: 'timeout', reason: `no answer within the command timeout of ${timeoutMs} ms` };
  if (/ECONNREFUSED/.test(message)) return { kind: 'disconnected', reason: 'connection refused' };
  if (/ENOTFOUND|EAI_AGAIN/.test(message)) return { kind: 'disconnected', reason: 'its host name does not resolve' };
  if (/cluster/i.test(message)) return { kind: 'cluster_down', reason: 'no node of the Redis Cluster can serve the deployment right now' };
  if (/sentinel|master/i.test(message)) return { kind: 'disconnected', reason: 'the sentinels name no reachable primary right now' };
  return { kind: 'disconnected', reason: 'not connected; reconnecting' };
}

/** A 503 `state_unavailable` saying `message`. */
export function stateUnavailable(message: string): MockError {
  return new MockError('state_unavailable', message, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
}

/** The 503 of every answer while the shared state cannot serve. */
export function unavailableError(url: string, reason: string): MockError {
  return stateUnavailable(
    `petstore-mock cannot use its shared state at ${displayUrl(url)} (${reason}); nothing was answered from local memory. Retry after ${RETRY_AFTER_SECONDS} s.`,
  );
}
