// The admin page's chart (src/http/admin-chart/limits-chart.js with uPlot and its CSS), bundled
// into one browser script, dist/admin-chart.js, and its style sheet, dist/admin-chart.css (uPlot's,
// served as a file: the page's Content-Security-Policy allows no inline style), that only the
// admin page loads (GET /__admin/limits-chart.js and .css): neither the API path nor the library's import ever reads it.
import { build } from 'esbuild';

export async function buildAdminChart() {
  await build({
    entryPoints: { 'admin-chart': 'src/http/admin-chart/limits-chart.js' },
    outdir: 'dist',
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'eof',
    logLevel: 'warning',
  });
}
