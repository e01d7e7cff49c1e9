import { parseDuration, parseInstant } from '../state/clock.js';
import { PLAN_LIMITS, PLAN_NAMES } from '../state/plans.js';
import { SPEC_TABLE } from '../pipeline/operations-table.js';
import { OPERATIONS } from './matchable-operations.js';
import { compileDeclared } from './declared-operations.js';
import { ScriptedRuntime, type CompiledMatch, type RuntimeSpec } from './scenario-runtime.js';
import { ScenarioSpecError } from './scenario-problems.js';
import { compileAnswer } from './forced-answers.js';
import type { BaseData } from '../state/base-data.js';
import type { KeyConfig, Limits, PlanName } from '../types.js';
import { specLimits, usageOf } from './scenario-limits.js';
import { ProfileProblem, checkProfile, compileProfile, profiledKeys, type CompiledProfile } from './profile.js';
import { withProfile } from './profile-settings.js';
import type { SessionSettings } from '../state/session-state.js';
import type { DataSpec, DurationSpec, LimitsSpec, MatchSpec, ScenarioSpec } from './scenario-spec.js';

export type { AnswerSpec, DataSpec, DurationSpec, MatchSpec, ScenarioSpec } from './scenario-spec.js';
export { MAX_RETRY_AFTER_S, ScenarioError, ScenarioSpecError, isScenarioName } from './scenario-problems.js';

/** The longest latency a scenario may give an answer: a timer's delay, kept well inside what timers take. */
export const MAX_LATENCY_MS = 60_000;

/** What compiling a scenario needs from the server it runs in. */
export interface CompileContext {
  /** The settings of the command line, before any scenario. */
  defaults: SessionSettings;
  /** The store's animals for a `data` section (the caller reads fixtures files). */
  data(spec: DataSpec): BaseData;
  /** The document of a `profile:` given as a path (the caller reads the file); absent where no file can be read. */
  profile?(path: string): unknown;
}

/**
 * Turns a scenario into the settings of a session. Schema-valid files can still be wrong in ways
 * only the server knows (a usage line for a key that does not exist, a status the matched operation
 * never answers); those throw `ScenarioSpecError` with the place of the mistake.
 */
export function compileScenario(spec: ScenarioSpec, name: string, ctx: CompileContext): SessionSettings {
  const d = ctx.defaults;
  const planLimits = resolvePlans(spec.plans);
  const profile = spec.profile === undefined ? d.profile : scenarioProfile(spec.profile, ctx);
  // Before the usage lines, which fill the windows the keys have.
  const keys = profile ? profiledKeys(resolveKeys(d.keys, spec, planLimits), profile) : resolveKeys(d.keys, spec, planLimits);
  const usage = (spec.usage ?? []).flatMap((line, i) =>
    usageOf(line, keys, (field, message) => new ScenarioSpecError(['usage', i, field], message)).map((u) => ({
      ...u,
      bannedForMs: line.bannedFor === undefined ? undefined : duration(line.bannedFor),
    })),
  );
  const settings: SessionSettings = {
    scenario: name,
    base: spec.data ? ctx.data(spec.data) : d.base,
    keys,
    anonymousLimits: spec.plans?.free ? planLimits.free : d.anonymousLimits,
    ban: {
      after: spec.ban?.after ?? d.ban.after,
      durationMs: spec.ban?.duration === undefined ? d.ban.durationMs : duration(spec.ban.duration),
    },
    deprecation: {
      deprecatedAt: spec.deprecation?.deprecatedAt ? instant(spec.deprecation.deprecatedAt, ['deprecation', 'deprecatedAt']) : d.deprecation.deprecatedAt,
      removalAt: spec.deprecation?.removalAt ? instant(spec.deprecation.removalAt, ['deprecation', 'removalAt']) : d.deprecation.removalAt,
    },
    clock: { frozen: spec.clock?.frozen ?? false },
    usage,
    journalSize: spec.journal?.size ?? d.journalSize,
  };
  const { $schema: _schema, ...definition } = spec;
  settings.definition = definition;
  const details = spec.journal?.details ?? d.journalDetails;
  if (details !== undefined) settings.journalDetails = details;
  if (spec.retryAfterFormat === 'http-date') settings.retryAfterFormat = 'http-date';
  if (spec.clock?.start !== undefined) settings.clock.start = instant(spec.clock.start, ['clock', 'start']);
  if (spec.operations !== undefined && spec.operations.length > 0) {
    settings.operations = compileDeclared(
      spec.operations,
      (method, path) => SPEC_TABLE.owner(method, path),
      (at, message) => new ScenarioSpecError(at, message),
    );
  }
  const runtime = compileRuntime(spec, name, new Set(keys.map((k) => k.key)));
  if (runtime) {
    settings.runtimeSpec = runtime;
    settings.runtime = () => new ScriptedRuntime(runtime);
  }
  return profile ? withProfile(settings, profile) : settings;
}

/** A scenario's `profile:`, a document or the path of one, checked and compiled. */
function scenarioProfile(value: string | object, ctx: CompileContext): CompiledProfile {
  if (typeof value === 'string' && !ctx.profile)
    throw new ScenarioSpecError(['profile'], 'a scenario that is not a file gives its profile as the document itself, not a path');
  const document = typeof value === 'string' ? (ctx.profile?.(value) as unknown) : value;
  try {
    return compileProfile(checkProfile(document));
  } catch (error) {
    if (!(error instanceof ProfileProblem)) throw error;
    const where = error.at.split('/').slice(1);
    throw new ScenarioSpecError(
      typeof value === 'string' ? ['profile'] : ['profile', ...where],
      `the profile ${error.at === '' ? '' : `at ${error.at} `}is wrong: ${error.message}`,
    );
  }
}

function resolvePlans(plans: ScenarioSpec['plans']): Record<PlanName, Limits> {
  return Object.fromEntries(PLAN_NAMES.map((plan) => [plan, limitsOf(plans?.[plan], PLAN_LIMITS[plan], ['plans', plan])])) as Record<PlanName, Limits>;
}

function limitsOf(entry: LimitsSpec | undefined, base: Limits, path: (string | number)[]): Limits {
  const limits = specLimits(entry, base);
  if (typeof limits !== 'string') return limits;
  throw new ScenarioSpecError([...path, 'limits'], limits);
}

function resolveKeys(start: readonly KeyConfig[], spec: ScenarioSpec, plans: Record<PlanName, Limits>): KeyConfig[] {
  const keys = new Map<string, KeyConfig>();
  for (const key of start) keys.set(key.key, key.custom ? { ...key } : { ...key, limits: plans[key.plan] });
  (spec.keys ?? []).forEach((entry, i) => {
    const known = keys.get(entry.key);
    const plan = entry.plan ?? known?.plan;
    if (!plan) throw new ScenarioSpecError(['keys', i], `the key ${JSON.stringify(entry.key)} is new here and needs a plan: free, pro, business or enterprise`);
    // A key with limits of its own keeps them unless the entry moves it to another plan.
    const keepsOwnLimits = known?.custom === true && entry.plan === undefined;
    const base = keepsOwnLimits ? known.limits : plans[plan];
    const key: KeyConfig = { key: entry.key, plan, limits: limitsOf(entry, base, ['keys', i]) };
    if (keepsOwnLimits || entry.perMinute !== undefined || entry.perDay !== undefined || entry.limits !== undefined) key.custom = true;
    if (entry.revoked ?? known?.revoked) key.revoked = true;
    keys.set(entry.key, key);
  });
  return [...keys.values()];
}

function instant(text: string, path: (string | number)[]): number {
  const ms = parseInstant(text);
  if (ms === undefined) throw new ScenarioSpecError(path, `${JSON.stringify(text)} is not an instant that exists; write one such as "2030-12-05T00:00:00Z"`);
  return ms;
}

function duration(value: DurationSpec): number {
  // The schema admits only durations parseDuration reads.
  return parseDuration(value) ?? 0;
}

function compileRuntime(spec: ScenarioSpec, name: string, keys: ReadonlySet<string>): RuntimeSpec | undefined {
  const steps = (spec.steps ?? []).map((step, i, all) => {
    const match = compileMatch(step.match, keys, ['steps', i, 'match']);
    if (all[i - 1]?.times === 'forever') {
      throw new ScenarioSpecError(['steps', i], `this step never runs: step ${i} before it answers forever; remove it, or give step ${i} a number of times`);
    }
    return { match, times: step.times === 'forever' ? Infinity : (step.times ?? 1), answer: compileAnswer(step.answer, match, ['steps', i, 'answer']) };
  });
  const chaosMatch = compileMatch(spec.chaos?.match, keys, ['chaos', 'match']);
  const chaos = spec.chaos && {
    seed: spec.chaos.seed,
    match: chaosMatch,
    answers: spec.chaos.answers.map((a, i) => ({ probability: a.probability, answer: compileAnswer(a.answer, chaosMatch, ['chaos', 'answers', i, 'answer']) })),
  };
  if (chaos && chaos.answers.reduce((sum, a) => sum + a.probability, 0) > 1 + 1e-9) {
    throw new ScenarioSpecError(['chaos', 'answers'], 'the probabilities of the chaos answers add up to more than 1');
  }
  const latency = compileLatency(spec.latency);
  if (steps.length === 0 && !chaos && !latency) return undefined;
  return { scenario: name, steps, repeat: spec.repeat === true, chaos, latency };
}

function compileLatency(latency: ScenarioSpec['latency']): { minMs: number; maxMs: number; seed: number } | undefined {
  if (latency === undefined) return undefined;
  if (typeof latency !== 'object') {
    const ms = latencyMs(latency, ['latency']);
    return { minMs: ms, maxMs: ms, seed: 0 };
  }
  const range = { minMs: latencyMs(latency.min, ['latency', 'min']), maxMs: latencyMs(latency.max, ['latency', 'max']), seed: latency.seed ?? 0 };
  if (range.minMs > range.maxMs) throw new ScenarioSpecError(['latency', 'min'], 'latency min is larger than max');
  return range;
}

function latencyMs(value: DurationSpec, path: (string | number)[]): number {
  const ms = duration(value);
  if (ms > MAX_LATENCY_MS) throw new ScenarioSpecError(path, `a latency is at most ${MAX_LATENCY_MS / 1000} s; give a shorter one`);
  return ms;
}

function compileMatch(match: MatchSpec | undefined, keys: ReadonlySet<string>, where: (string | number)[]): CompiledMatch {
  if (match?.key !== undefined && !keys.has(match.key)) {
    throw new ScenarioSpecError(
      [...where, 'key'],
      `match names the key ${JSON.stringify(match.key)}, which this server does not have, so the step would never run; add it under keys`,
    );
  }
  const pattern = match?.path === undefined ? undefined : pathPattern(match.path);
  const operations = OPERATIONS.filter(
    (op) =>
      (match?.operation === undefined || match.operation === op.id) &&
      (match?.method === undefined || (match.method === 'HEAD' ? 'GET' : match.method) === op.method) &&
      (pattern === undefined || pattern.test(op.path)),
  ).map((op) => op.id);
  const compiled: CompiledMatch = { operations: new Set(operations), method: match?.method, path: pattern };
  if (match?.key !== undefined) compiled.key = match.key;
  // Requests reach the core with lower-case header names.
  if (match?.headers !== undefined) compiled.headers = Object.entries(match.headers).map(([header, value]) => [header.toLowerCase(), value]);
  return compiled;
}

/** `/v1/pets/*` style: `*` stands for one whole path segment. */
function pathPattern(path: string): RegExp {
  const source = path
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}$`);
}
