// The label values and buckets of the metrics (metrics.ts), fixed ahead so that every series an
// API answer can have is shown at 0 from the first scrape.
import type { ErrorCode } from './core/errors.js';
import { PLAN_NAMES } from './core/state/plans.js';
import type { PlanName } from './core/types.js';

/** The `plan` label's values: `none` for a request without a valid key, then the plans. */
export const PLANS: readonly string[] = ['none', ...PLAN_NAMES];
export const PLAN_COLUMN = Object.fromEntries(PLAN_NAMES.map((plan, i) => [plan, i + 1])) as Readonly<Record<PlanName, number>>;

/** Upper bounds (seconds) of the API duration histogram: the core answers in tens of microseconds, scenarios delay up to seconds. */
export const DURATION_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Upper bounds (seconds) of the Redis round-trip histogram's buckets. */
export const ROUNDTRIP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** The failure kinds of state-redis (state-errors.ts, connection.ts), shown at 0 before they happen. */
export const FAILURE_KINDS = [
  'timeout',
  'disconnected',
  'oom',
  'readonly',
  'moved',
  'cluster_down',
  'loading',
  'primary_down',
  'busy',
  'auth',
  'no_replicas',
  'refused',
  'deployment_gone',
];

/** The statuses the API answers without an error code. */
export const SUCCESS_STATUSES = [200, 201, 204];
/** The codes the API pipeline answers with; the admin API's and those of a broken connection are not API answers. */
export const API_CODES: readonly ErrorCode[] = [
  'invalid_query',
  'invalid_path_parameter',
  'invalid_json',
  'invalid_body',
  'missing_body',
  'invalid_session',
  'missing_api_key',
  'malformed_authorization',
  'invalid_api_key',
  'revoked_api_key',
  'pet_not_found',
  'route_not_found',
  'method_not_allowed',
  'endpoint_removed',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'rate_limited',
  'key_banned',
  'internal_error',
  'not_implemented',
  'store_full',
  'bad_gateway',
  'service_unavailable',
  'gateway_timeout',
  'state_unavailable',
];
/** Codes only a request without a valid key gets, and one only a valid key gets: their other plans cannot happen. */
export const KEYLESS = new Set<string>(['missing_api_key', 'malformed_authorization', 'invalid_api_key', 'revoked_api_key']);
export const KEYED = new Set<string>(['key_banned']);
