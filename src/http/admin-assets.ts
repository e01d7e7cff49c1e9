import type { Router } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MockError } from '../core/errors.js';

/** The built chart script, found upwards from this module: from src/ (tests) and dist/ (the package) alike. */
function chartFile(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    for (const candidate of [join(dir, 'admin-chart.js'), join(dir, 'dist', 'admin-chart.js')]) if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

let chart: string | undefined;

/** The path of the chart's script; the admin page loads it, and it holds no data, so it needs no token. */
export const CHART_PATH = '/limits-chart.js';

/** Serves the admin page's chart script (uPlot and the page's code, bundled at build time). */
export function addAssetRoutes(router: Router): void {
  router.get(CHART_PATH, (_req, res) => {
    const file = chart === undefined ? chartFile() : undefined;
    if (file) chart = readFileSync(file, 'utf8');
    if (chart === undefined)
      throw new MockError('route_not_found', 'the admin page chart is not built; run npm run build (a clone) or reinstall petstore-mock.');
    res.type('text/javascript').setHeader('Cache-Control', 'no-cache');
    res.send(chart);
  });
}
