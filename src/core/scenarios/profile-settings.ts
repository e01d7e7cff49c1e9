// A profile laid over a session's settings: the latency of the scenario's runtime (the same seeded
// sequence every home of state draws from) and every key's limits.
import type { SessionSettings } from '../state/session-state.js';
import { profiledKeys, type CompiledProfile } from './profile.js';
import type { RuntimeSpec } from './runtime-spec.js';
import { ScriptedRuntime } from './scenario-runtime.js';

/** The seed of a profile's latency sequence when the scenario's `latency` gives none. */
export const PROFILE_LATENCY_SEED = 1;

/**
 * The settings with the profile's latency (replacing a scenario's `latency`, keeping its seed),
 * its `Retry-After` form and, when the profile measured limits, those limits on every key. The profile is kept on the settings
 * so that scenarios compiled over them inherit it.
 */
export function withProfile(settings: SessionSettings, profile: CompiledProfile): SessionSettings {
  const curves = profile.latency;
  const all = [curves.other, ...Object.values(curves.byOperation)].flatMap((c) => c.map(([, ms]) => Math.round(ms)));
  const [minMs, maxMs] = [Math.min(...all), Math.max(...all)];
  const seed = settings.runtimeSpec?.latency?.seed ?? PROFILE_LATENCY_SEED;
  const runtimeSpec: RuntimeSpec = {
    ...(settings.runtimeSpec ?? { scenario: settings.scenario, steps: [], repeat: false }),
    latency: { minMs, maxMs, seed, curves },
  };
  return {
    ...settings,
    keys: profiledKeys(settings.keys, profile),
    // A deployment that sends Retry-After as an HTTP-date is copied in that too.
    ...(profile.document.retryAfterForm === 'http-date' && { retryAfterFormat: 'http-date' as const }),
    profile,
    runtimeSpec,
    runtime: () => new ScriptedRuntime(runtimeSpec),
  };
}
