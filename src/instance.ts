// This process as an operator sees it: which instance answered, and since when it runs.
import { hostname } from 'node:os';

/** `HOST:PID`: names the instance in `/__admin/health`, the metrics and a deployment's replicas. */
export const INSTANCE = `${hostname()}:${process.pid}`;

/** Whole seconds since the process started (not since a module happened to load). */
export function uptimeSeconds(): number {
  return Math.floor(process.uptime());
}
