// The admin page's files under /__admin, and the policy the page is served with.

/** The path of the chart's script; the admin page loads it, and it holds no data, so it needs no token. */
export const CHART_PATH = '/limits-chart.js';
/** The chart's style sheet (uPlot's), beside its script. */
export const CHART_STYLE_PATH = '/limits-chart.css';
/** The page's own script and style: served as files, so the page's CSP allows no inline code. */
export const SCRIPT_PATH = '/admin.js';
export const STYLE_PATH = '/admin.css';
/** The page and its files: they hold no data, so they are served without the admin token. */
export const PAGE_PATHS: readonly string[] = ['/', SCRIPT_PATH, STYLE_PATH, CHART_PATH, CHART_STYLE_PATH];

/**
 * The admin page's Content-Security-Policy: its own scripts, styles and API calls only, no inline
 * code, no plugin, no base or form target elsewhere, and no page may frame it (a click on a
 * framed "Reset session" would be someone else's).
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
