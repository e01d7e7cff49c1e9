// A key as the admin API and page show it (GET /__admin/keys): redacted unless it is a public
// demo key, with its salted id and its window's report.
import type { KeyIds } from './key-id.js';
import { demoKeys, redactKey } from './plans.js';
import type { PlanName, Limits } from '../types.js';
import type { SessionSettings } from './session-state.js';

/** One key as `GET /__admin/keys` shows it. */
export interface KeyView {
  key: string;
  /** The journal's fingerprint of the whole key (`keyId` of its entries), to find its requests. */
  keyId: string;
  plan: PlanName;
  limits: Limits;
  revoked: boolean;
  remaining: number;
  reportedLimit: number;
  reset: number;
  bannedUntil: string | null;
}

const DEMO_KEYS = new Set(demoKeys().map((k) => k.key));

/**
 * A key as the admin API and page show it: the public demo keys whole, every other key redacted
 * as the banner and the journal show it (a key given with --key is a secret of its owner's).
 */
export function shownKey(key: string): string {
  return DEMO_KEYS.has(key) ? key : redactKey(key);
}

/** A key's admin view from its limiter report. */
export function keyView(
  k: SessionSettings['keys'][number],
  report: { remaining: number; limit: number; reset: number; bannedUntil?: number },
  keyIds: KeyIds,
): KeyView {
  return {
    key: shownKey(k.key),
    keyId: keyIds.of(k.key),
    plan: k.plan,
    limits: k.limits,
    revoked: k.revoked === true,
    remaining: report.remaining,
    reportedLimit: report.limit,
    reset: report.reset,
    bannedUntil: report.bannedUntil !== undefined ? new Date(report.bannedUntil).toISOString() : null,
  };
}
