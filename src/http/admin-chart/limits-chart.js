// The admin page's chart of a key's limits, run in the browser: a bundle of its own
// (dist/admin-chart.js, built by scripts/build-admin-chart.mjs) that only the admin page loads.
// It uses the page's `api` helper (so the admin token and the session apply) and draws, on the
// session clock, each request of the chosen key by what it got, and the quota left in its
// shortest window (the minute's, for a plan).
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { limitsTimeline } from '../../core/state/limits-timeline.ts';
import { redactKey } from '../../core/pipeline/auth.ts';
import { windowName } from '../../core/state/windows.ts';

/* global api */

/** The lanes of the right-hand axis, bottom to top. */
const LANES = [
  { kind: 'banned', label: 'banned', color: '#1d2330' },
  { kind: 'counted', label: 'counted', color: '#d92d20' },
  { kind: 'refused', label: '429', color: '#f79009' },
  { kind: 'error', label: 'error', color: '#98a2b3' },
  { kind: 'ok', label: '2xx', color: '#067647' },
];

const $ = (id) => document.getElementById(id);
let chart;
let shown = '';
/** The key drawn, as an index into GET /__admin/keys and its shown name (to notice a new key list). */
let chosen;
/** Whether a person picked the key: until then the chart follows the latest request's key. */
let picked = false;

/**
 * The uPlot data: x in seconds, the quota line, then one series per lane (null where another
 * kind). Where a window of the shortest length ends between two requests, a point at its end
 * shows the quota refilled, so the line does not stay at 0 over windows that had quota again.
 */
function columns(timeline, most) {
  const rows = [];
  const length = timeline.lengthMs;
  let previous;
  for (const p of timeline.points) {
    const end = previous === undefined ? undefined : (Math.floor(previous.at / length) + 1) * length;
    if (end !== undefined && p.at >= end && previous.left[0] < most) rows.push({ at: end, left: [most], kind: null });
    rows.push(p);
    previous = p;
  }
  return [rows.map((r) => r.at / 1000), rows.map((r) => r.left[0]), ...LANES.map((lane, i) => rows.map((r) => (r.kind === lane.kind ? i : null)))];
}

function options(width, perMinute, name) {
  return {
    width,
    height: 240,
    legend: { live: false },
    cursor: { points: { show: false } },
    scales: { x: { time: true }, quota: { range: [0, Math.max(1, perMinute)] }, lane: { range: [-0.5, LANES.length - 0.5] } },
    axes: [
      // The session clock in UTC, as the rest of the page shows it.
      { space: 50, values: (_u, splits) => splits.map((s) => new Date(s * 1000).toISOString().slice(11, splits.every((x) => x % 60 === 0) ? 16 : 19)) },
      { scale: 'quota', label: `quota left this ${name}`, labelSize: 18, size: 36 },
      { scale: 'lane', side: 1, size: 64, splits: () => LANES.map((_, i) => i), values: () => LANES.map((l) => l.label), grid: { show: false } },
    ],
    series: [
      { label: 'session clock' },
      { label: 'quota left', scale: 'quota', stroke: '#3b5bdb', width: 2, paths: uPlot.paths.stepped({ align: 1 }), points: { show: false } },
      ...LANES.map((lane) => ({
        label: lane.label,
        scale: 'lane',
        stroke: lane.color,
        fill: lane.color,
        paths: () => null,
        points: { show: true, size: 9, fill: lane.color },
      })),
    ],
  };
}

/**
 * How the journal names a key of GET /__admin/keys: its fingerprint where both carry one (two
 * keys whose redactions look alike stay apart), else the redacted name. The keys list shows the
 * demo keys whole and every other key already redacted, as the journal does.
 */
const journalName = (name) => (name.includes('…') || name === '****' ? name : redactKey(name));
const sameKey = (key, entry) => (key.keyId !== undefined && entry.keyId !== undefined ? key.keyId === entry.keyId : journalName(key.key) === entry.key);

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "A", "A and B", "A, B and C". */
const listed = (parts) => (parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`);

function summary(key, timeline) {
  const last = timeline.points.at(-1);
  if (!last) return `${key.key}: no requests in the journal yet.`;
  const lefts = key.limits.map((w, i) => `${last.left[i]} of ${w.max} ${w.lengthMs === 86_400_000 ? 'today' : `left this ${windowName(w.lengthMs)}`}`);
  return `${key.key}: ${plural(timeline.points.length, 'request')} in ${plural(timeline.windows.length, `${windowName(timeline.lengthMs)} window`)}; after the latest, ${listed(lefts)}.`;
}

async function refreshChart() {
  const [keys, latest] = await Promise.all([api('keys'), api('requests?limit=1')]);
  const select = $('limits-key');
  const names = keys.map((k) => k.key);
  if ([...select.options].map((o) => o.textContent).join('\n') !== names.join('\n')) {
    select.replaceChildren(...names.map((n, i) => Object.assign(document.createElement('option'), { value: String(i), textContent: n })));
  }
  if (chosen !== undefined && keys[chosen.index]?.key !== chosen.name) {
    // A new key list (another scenario or session): the same key where it still is, else follow again.
    const index = names.indexOf(chosen.name);
    chosen = index < 0 ? undefined : { index, name: chosen.name };
    if (index < 0) picked = false;
  }
  if (!picked) {
    const entry = latest[0];
    const index = entry ? keys.findIndex((k) => sameKey(k, entry)) : -1;
    if (index >= 0) chosen = { index, name: names[index] };
  }
  if (chosen === undefined && keys.length > 0) chosen = { index: 0, name: names[0] };
  if (chosen === undefined) return;
  select.value = String(chosen.index);
  const key = keys[chosen.index];
  const entries = (await api('requests?limit=1000&key=' + encodeURIComponent(journalName(key.key)))).filter((e) => sameKey(key, e));
  const timeline = limitsTimeline(entries, key.limits);
  const shortest = key.limits[0] ?? { lengthMs: 60_000, max: 0 };
  const data = columns(timeline, shortest.max);
  window.petstoreLimitsChart = { key: key.key, limits: key.limits, timeline, data };
  $('limits-summary').textContent = summary(key, timeline);
  const signature = chosen.index + ' ' + key.key + ' ' + JSON.stringify(key.limits) + ' ' + JSON.stringify(data) + ' ' + $('limits-chart').clientWidth;
  if (signature === shown) return;
  shown = signature;
  chart?.destroy();
  chart = new uPlot(options($('limits-chart').clientWidth, shortest.max, windowName(shortest.lengthMs)), data, $('limits-chart'));
}

async function tick() {
  try {
    await refreshChart();
  } catch {
    // The page shows the connection state; the chart waits for the next tick.
  }
}

// A person's pick (a change event comes only from them): the chart stays on it from then on.
$('limits-key').onchange = () => {
  const index = Number($('limits-key').value);
  chosen = { index, name: $('limits-key').options[index]?.textContent ?? '' };
  picked = true;
  tick();
};
window.addEventListener('resize', () => tick());
tick();
setInterval(tick, 1000);
