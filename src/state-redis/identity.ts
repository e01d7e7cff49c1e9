// What every replica of a deployment must share: everything that shapes the world its sessions
// see. Compared field by field when a replica joins, in this order, so a refusal names the first
// flag that differs; values that are not secret are shown, the admin token only as set or not.
import { createHash } from 'node:crypto';
import { redactKey } from '../core/state/plans.js';
import { limitsText } from '../core/state/windows.js';
import { DEFAULT_PET_COUNT, DEFAULT_SEED } from '../core/state/seed.js';
import type { SessionSettings } from '../core/state/session-state.js';
import type { IdentityField } from './deployment.js';
import { animalsOf, digest } from './settings-registry.js';

/** The version of the keys and scripts a deployment's data is written with. */
const FORMAT = '7';

function count(settings: SessionSettings): string {
  const n = settings.base.all.length;
  return n === 1 ? '1 animal' : `${n} animals`;
}

/** The settings a scenario gives beyond animals and keys, functions left out. */
function rules(s: SessionSettings): string {
  const { anonymousLimits, ban, deprecation, clock, usage, journalSize, journalDetails, runtimeSpec, retryAfterFormat } = s;
  return digest(
    JSON.stringify({ anonymousLimits, ban, deprecation, clock, usage, journalSize, journalDetails, runtimeSpec, retryAfterFormat }, (_k, v: unknown) =>
      typeof v === 'number' && !Number.isFinite(v) ? String(v) : v,
    ),
  );
}

/** What a replica brings to the comparison: the flags every instance of a deployment must share. */
export interface IdentityInput {
  seed?: number;
  pets?: number;
  /** The fixtures file, or true for animals given to the library. */
  fixtures?: string | boolean;
  /** The admin token; replicas must all have it, or all none (only its digest is stored). */
  adminToken?: string;
  /** `X-Mock-Session` sessions kept at once across the deployment (1,000 by default). */
  maxSessions: number;
}

/**
 * The identity of a replica: `host` are the settings of its flags alone (fixtures included),
 * `start` those its sessions start with (after `--scenario`), `scenario` where they came from.
 */
export function identityOf(
  options: IdentityInput,
  host: SessionSettings,
  start: SessionSettings,
  scenario: { name: string; file: string; text: string } | undefined,
): IdentityField[] {
  const fixtures = options.fixtures === undefined || options.fixtures === false ? undefined : options.fixtures;
  const keys = start.keys.map((k) => `${redactKey(k.key)}:${k.plan}:${limitsText(k.limits).join(',')}${k.revoked ? ':revoked' : ''}`);
  const token = options.adminToken;
  const field = (name: string, flag: string, value: string, shown = value): IdentityField => ({ field: name, flag, value, shown });
  return [
    {
      ...field('format', 'petstore-mock version', FORMAT, `shared-state format ${FORMAT}`),
      differs: 'another petstore-mock version (its shared-state format)',
    },
    field('seed', '--seed', String(options.seed ?? DEFAULT_SEED)),
    field('pets', '--pets', String(options.pets ?? DEFAULT_PET_COUNT)),
    fixtures === undefined
      ? field('fixtures', '--fixtures', 'none')
      : field(
          'fixtures',
          '--fixtures',
          animalsOf(host),
          `${typeof fixtures === 'string' ? fixtures : 'animals given to the library'} (${count(host)}, content ${animalsOf(host)})`,
        ),
    scenario === undefined
      ? field('scenario', '--scenario', 'none')
      : field('scenario', '--scenario', `${scenario.name}-${digest(scenario.text)}`, `${scenario.name} (${scenario.file}, text ${digest(scenario.text)})`),
    {
      ...field('animals', 'fixtures file of --scenario (data.fixtures)', animalsOf(start), `${count(start)}, content ${animalsOf(start)}`),
      differs: 'other animals in the fixtures file of --scenario (data.fixtures)',
    },
    field('keys', '--key', digest(JSON.stringify(start.keys)), keys.join(' ')),
    field('rules', '--scenario (its limits, ban, clock or journal settings)', rules(start), `settings ${rules(start)}`),
    field('maxSessions', 'maxSessions option', String(options.maxSessions)),
    {
      field: 'adminToken',
      flag: '--admin-token',
      value: token === undefined ? 'none' : createHash('sha256').update(token).digest('hex'),
      shown: token === undefined ? 'without an --admin-token' : 'with an --admin-token',
      secret: true,
    },
  ];
}
