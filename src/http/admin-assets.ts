import type { Request, Response, Router } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MockError } from '../core/errors.js';
import { CHART_PATH, CHART_STYLE_PATH, PAGE_SCRIPT, PAGE_STYLE, SCRIPT_PATH, STYLE_PATH } from './admin-page.js';

/** A built file of the admin page, found upwards from this module: from src/ (tests) and dist/ (the package) alike. */
function builtFile(name: string): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    for (const candidate of [join(dir, name), join(dir, 'dist', name)]) if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

const built = new Map<string, string>();

function sendBuilt(name: string, type: string): (req: Request, res: Response) => void {
  return (_req, res) => {
    let text = built.get(name);
    if (text === undefined) {
      const file = builtFile(name);
      if (!file) throw new MockError('route_not_found', 'the admin page chart is not built; run npm run build (a clone) or reinstall petstore-mock.');
      text = readFileSync(file, 'utf8');
      built.set(name, text);
    }
    res.type(type).setHeader('Cache-Control', 'no-cache');
    res.send(text);
  };
}

/** Serves the admin page's files: its script and style, and the chart's (uPlot and the page's code, bundled at build time). */
export function addAssetRoutes(router: Router): void {
  router.get(SCRIPT_PATH, (_req, res) => {
    res.type('text/javascript').setHeader('Cache-Control', 'no-cache');
    res.send(PAGE_SCRIPT);
  });
  router.get(STYLE_PATH, (_req, res) => {
    res.type('text/css').setHeader('Cache-Control', 'no-cache');
    res.send(PAGE_STYLE);
  });
  router.get(CHART_PATH, sendBuilt('admin-chart.js', 'text/javascript'));
  router.get(CHART_STYLE_PATH, sendBuilt('admin-chart.css', 'text/css'));
}
