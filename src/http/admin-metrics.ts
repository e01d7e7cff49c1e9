// GET /__admin/metrics: the mock's counters in the Prometheus text format, for the in-memory mock
// and a replica of a shared state alike (the Redis series only for the latter).
import type { Router } from 'express';
import type { AdminState } from '../core/state/backend.js';
import type { HttpOptions } from './options.js';

/**
 * Adds the metrics route; the scrape asks the state for its sessions (and, on a shared state,
 * whether this replica is the one that reports the deployment's), and says when it cannot.
 */
export function addMetricsRoute(router: Router, state: AdminState, options: HttpOptions): void {
  router.get('/metrics', async (_req, res) => {
    const engine = state.stateReport?.().engine ?? 'memory';
    let sessions: number | undefined;
    let reportsDeployment = false;
    try {
      const health = await state.health(undefined);
      sessions = health.sessions;
      reportsDeployment = health.reportsDeployment === true;
    } catch {
      // A scrape still answers while the shared state cannot: state_up 0 says so.
    }
    const body = options.metrics?.render({ engine, sessions, reportsDeployment }) ?? '';
    res.type('text/plain; version=0.0.4; charset=utf-8').send(body);
  });
}
