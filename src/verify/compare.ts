// `verify --compare-mock`: verify's requests, as they were sent to the deployment, sent again to an
// in-process mock set up alike (the deployment's animals, the key with the limits it announced,
// the same usage of the window, the clock at each answer's Date), and the answers compared
// behaviour by behaviour. The mock's requests cost the deployment's budget nothing.
import { createFetchHandler, type MockFetchHandler } from '../mock.js';
import { PLAN_LIMITS, PLAN_NAMES } from '../core/state/plans.js';
import { limitsText } from '../core/state/windows.js';
import type { KeyOption } from '../library-options.js';
import type { Pet, PlanName } from '../core/types.js';
import { jsonOf, requestHeaders, seenOf, type Logged } from './client.js';
import { announcedLimits } from './profile.js';
import { compareAnswers, type Side } from './compare-answers.js';
import type { Difference } from './types.js';

/** The most requests the mock is sent to use up what the deployment said the key had used. */
const MAX_PRESPEND = 10_000;
const ORIGIN = 'http://petstore-mock.compare';

/** The plan whose windows include every announced one, else Enterprise with exactly those windows. */
export function mockKey(key: string, announced: readonly string[]): KeyOption {
  if (announced.length === 0) return { key, plan: 'enterprise' };
  const plan = PLAN_NAMES.find((p: PlanName) => p !== 'enterprise' && announced.every((w) => limitsText(PLAN_LIMITS[p]).includes(w)));
  return plan === undefined ? { key, plan: 'enterprise', limits: [...announced] } : { key, plan };
}

/** A mock with the animals the probe listed, when they are animals the mock can hold. */
function handlerFor(key: KeyOption, probeJson: unknown): MockFetchHandler {
  if (Array.isArray(probeJson) && probeJson.length > 0) {
    try {
      return createFetchHandler({ keys: [key], fixtures: probeJson as Pet[] });
    } catch {
      // Not animals the mock can store (a placeholder, a field it refuses): its own store then.
    }
  }
  return createFetchHandler({ keys: [key] });
}

async function send(mock: MockFetchHandler, path: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Side> {
  const response = await mock(new Request(`${ORIGIN}/v1${path}`, init));
  return { status: response.status, headers: Object.fromEntries(response.headers), seen: seenOf(jsonOf(await response.text())) };
}

/**
 * Sends the requests of `log` (the deployment's exchanges, in order) to an in-process mock set up
 * alike and returns every difference, each behaviour once per request shape.
 */
export async function compareWithMock(log: readonly Logged[], key: string, probeJson: unknown): Promise<Difference[]> {
  const announced = announcedLimits(log);
  const mock = handlerFor(mockKey(key, announced), probeJson);
  const first = log[0];
  if (!first) return [];
  mock.clock.set(first.at);
  mock.clock.freeze();
  const headersFor = (logged: Logged): Record<string, string> => ({ accept: 'application/json', ...requestHeaders(logged.request, key) });
  await prespend(mock, first, headersFor(first));
  const ids = new Map<string, string>();
  const pairs: { logged: Logged; mock: Side }[] = [];
  for (const logged of log) {
    if (!logged.exchange.response) continue;
    if (logged.at > mock.clock.now().getTime()) mock.clock.set(logged.at);
    const path = logged.request.path.replace(/^\/pets\/([^/?#]+)/, (all, id: string) => (ids.has(id) ? `/pets/${ids.get(id)}` : all));
    const side = await send(mock, path, { method: logged.request.method, headers: headersFor(logged), body: logged.request.body });
    const made = logged.seen.pet?.id;
    if (logged.request.method === 'POST' && made !== undefined && side.seen.pet?.id !== undefined) ids.set(made, side.seen.pet.id);
    pairs.push({ logged, mock: side });
  }
  return compareAnswers(pairs);
}

/**
 * Uses up on the mock what the deployment's first answer said the key had already used of its
 * window (X-RateLimit-Limit − X-RateLimit-Remaining − the probe itself), so both count alike.
 */
async function prespend(mock: MockFetchHandler, first: Logged, headers: Record<string, string>): Promise<void> {
  const h = first.exchange.response?.headers ?? {};
  const limit = Number(h['x-ratelimit-limit']);
  const remaining = Number(h['x-ratelimit-remaining']);
  if (first.request.auth !== 'key' || !Number.isSafeInteger(limit) || !Number.isSafeInteger(remaining)) return;
  const used = Math.min(MAX_PRESPEND, limit - remaining - 1);
  for (let i = 0; i < used; i++) await mock(new Request(`${ORIGIN}/v1/pets?limit=1`, { headers }));
}
