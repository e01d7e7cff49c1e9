import { CHART_PATH } from './admin-paths.js';

/**
 * The admin page's "Limits over time" section: a key to pick, the chart (drawn by the bundled
 * script of admin-assets.ts, loaded only here) and a summary in words for screen readers.
 */
export const LIMITS_SECTION = `<h2>Limits over time</h2>
<div class="row"><label class="inline">key <select id="limits-key" aria-label="key of the chart"></select></label></div>
<div id="limits-chart" role="img" aria-label="chart of the chosen key's requests and quota over time" aria-describedby="limits-summary"></div>
<p id="limits-summary" class="muted"></p>
<script src="/__admin${CHART_PATH}" defer></script>`;

export const LIMITS_STYLE = `
#limits-chart{background:#fff;border:1px solid var(--line);border-radius:8px;padding:.4rem 0;min-height:260px;overflow:hidden}
#limits-chart .u-legend{font-size:12px}`;
