// Key names of a deployment (docs/scale-out.md, "Key layout"). Anything a user chooses enters a key
// name only encoded (keyPart), so no choice can reach another session's keys or the deployment's
// own. The Lua twin is `enc` in lua-library.ts; test/redis/keys.test.ts holds the two to the same names.

const KEPT = /^[A-Za-z0-9._-]*$/;

/** A user-given text as one part of a key name: letters, digits and `._-` as they are, every other byte of its UTF-8 as `%XX`. */
export function keyPart(text: string): string {
  if (KEPT.test(text)) return text;
  return text.replace(/[^A-Za-z0-9._-]/gu, (c) =>
    Array.from(Buffer.from(c, 'utf8'), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/** The hash of a session (`{P}:s:ID`); its other keys are this name and a suffix (`:j`, `:p`, …). */
export function sessionKey(prefix: string, sid: string): string {
  return `${prefix}:s:${keyPart(sid)}`;
}

/** The keys a session's data lives in (what dropping a session deletes). */
export function sessionKeys(prefix: string, sid: string): string[] {
  const mk = sessionKey(prefix, sid);
  return [mk, `${mk}:bo`, `${mk}:j`, `${mk}:p`, `${mk}:p:available`, `${mk}:p:pending`, `${mk}:p:sold`];
}

export function scenarioKey(prefix: string, settingsId: string): string {
  return `${prefix}:scn:${keyPart(settingsId)}`;
}

export function initKey(prefix: string, settingsId: string): string {
  return `${prefix}:init:${keyPart(settingsId)}`;
}

/**
 * A key no script ever writes, declared by every call: while the deployment's slot migrates, a
 * declared key that is missing makes the node answer ASK or TRYAGAIN instead of running a script
 * that could meet a key moved away halfway.
 */
export function absentKey(prefix: string): string {
  return `${prefix}:none`;
}

/** The deployment's keys a decision may touch (the LRU, the epoch, evictions, the start settings), and the absent key. */
export function deploymentKeys(prefix: string): string[] {
  return [`${prefix}:lru`, `${prefix}:sessions`, `${prefix}:epoch`, `${prefix}:evictions`, `${prefix}:evicted`, initKey(prefix, 'start'), absentKey(prefix)];
}

/** The keys appending a session's journal entries touches. */
export function journalKeys(prefix: string, sid: string): string[] {
  const mk = sessionKey(prefix, sid);
  return [mk, `${mk}:j`];
}

/** The session id an admin read of an unknown session works on, and drops (no real id holds a space). */
export const SCRATCH_SESSION = ' look';

/** Every key an admin call on a session may touch: the deployment's, the session's, a read's scratch session and the settings it applies. */
export function adminCallKeys(prefix: string, sid: string, set: string, also: readonly string[]): string[] {
  return [
    `${prefix}:deploy`,
    ...deploymentKeys(prefix),
    initKey(prefix, set),
    ...sessionKeys(prefix, sid),
    ...sessionKeys(prefix, SCRATCH_SESSION),
    ...also.flatMap((other) => (other === sid ? [] : sessionKeys(prefix, other))),
  ];
}
