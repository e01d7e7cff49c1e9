import { ADMIN_SCRIPT } from './admin-page-script.js';
import { AUDIT_PANEL, AUDIT_SCRIPT } from './admin-page-audit.js';

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

/** The page's script, served as /__admin/admin.js: the page's own, then the audit panel's, which uses its helpers. */
export const PAGE_SCRIPT = [ADMIN_SCRIPT, AUDIT_SCRIPT].join('\n');

/**
 * The admin page: a self-contained live view over the admin API for QA. It polls the admin API
 * (no build step, no framework), with no inline script or style, so it can be served under a
 * strict Content-Security-Policy (`PAGE_CSP` above). When `--admin-token` is set it takes the token from `?token=`
 * or asks for it (kept for the tab's life in sessionStorage). It picks the `X-Mock-Session`
 * session to watch from the sessions list (or `?session=`); looking at a session does not create it. It asks for no favicon,
 * so opening it adds nothing to the journal it shows. Below 640 px wide, tables turn into cards so
 * a phone never scrolls sideways.
 */
export function adminPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>petstore-mock admin</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/__admin${STYLE_PATH}"><link rel="stylesheet" href="/__admin${CHART_STYLE_PATH}">
<script src="/__admin${SCRIPT_PATH}" defer></script>
</head><body>
<header><h1>petstore-mock</h1>
  <label class="inline">session <select id="session" aria-label="session"><option value="default">default</option></select></label>
  <span id="session-label"></span><span id="live" class="pill">connecting…</span></header>
<main>
<section class="cards">
  <div class="card"><h2>Scenario</h2>
    <p class="big" id="scenario">…</p><p class="muted" id="scenario-description"></p><p class="muted" id="scenario-operations"></p>
    <div class="row"><select id="scenarios" aria-label="scenario"></select><button id="switch">Switch</button><button id="reset" class="secondary">Reset session</button></div>
    <div class="row"><span class="inline" role="group" aria-label="snapshot of this session">
<button type="button" id="snapshot-download" class="secondary">Download snapshot</button>
<button type="button" id="snapshot-upload" class="secondary">Upload snapshot…</button>
<input type="file" id="snapshot-file" accept=".json,application/json" hidden aria-label="snapshot file"></span></div>
  </div>
  <div class="card"><h2>Clock</h2>
    <p class="big" id="clock">…</p><p class="muted" id="clock-mode"></p>
    <form id="advance-form" class="row" autocomplete="off"><input id="advance-by" value="61s" size="6" aria-label="advance by"><button id="advance">Advance</button>
      <button type="button" id="freeze" class="secondary">Freeze</button></form>
    <form id="set-form" class="row" autocomplete="off"><input id="set-to" placeholder="2030-12-05T00:00:00Z" size="22" aria-label="set clock to"><button id="set" class="secondary">Set</button></form>
  </div>
</section>
<form id="token-form" hidden><label for="token">This admin API is protected: enter the --admin-token value</label>
  <div class="row"><input id="token" type="password" autocomplete="off" size="24"><button>Open</button></div></form>
<p id="message" role="status"></p>
<h2>Keys</h2>
<table id="keys" class="stack"><thead><tr><th>key</th><th>plan</th><th>limits</th><th>remaining</th><th>resets</th><th>state</th></tr></thead><tbody></tbody></table>
<h2>Limits over time</h2>
<div class="row"><label class="inline">key <select id="limits-key" aria-label="key of the chart"></select></label></div>
<div id="limits-chart" role="img" aria-label="chart of the chosen key's requests and quota over time" aria-describedby="limits-summary"></div>
<p id="limits-summary" class="muted"></p>
<script src="/__admin${CHART_PATH}" defer></script>
${AUDIT_PANEL}
<h2>Requests <span class="count" id="request-count"></span></h2>
<form id="filter" class="filters" autocomplete="off">
  <select id="f-method" aria-label="method"><option value="">any method</option><option>GET</option><option>HEAD</option><option>POST</option><option>OPTIONS</option><option>PUT</option><option>PATCH</option><option>DELETE</option></select>
  <input id="f-path" placeholder="path, * wildcards" aria-label="path" size="16">
  <input id="f-status" placeholder="status or 4xx" aria-label="status" size="9">
  <input id="f-code" placeholder="error code" aria-label="code" size="12">
  <input id="f-key" placeholder="key" aria-label="key" size="12">
  <button type="button" id="f-clear" class="secondary">Clear</button>
</form>
<div class="row"><label class="inline"><input type="checkbox" id="record"> record headers and bodies</label><button type="button" id="har-download" class="secondary">Download HAR</button></div>
<p id="filter-message" class="muted" role="status"></p>
<table id="requests" class="stack"><thead><tr><th>#</th><th>clock</th><th>request</th><th>status</th><th>key</th><th>why</th></tr></thead><tbody></tbody></table>
<p class="muted">Select a request (its number, or the row) to see its headers and bodies; Escape closes them.</p>
</main>
</body></html>`;
}

/** The page's style sheet, served as /__admin/admin.css. */
export const PAGE_STYLE = `
:root{--fg:#1d2330;--muted:#667085;--line:#e4e7ec;--bg:#f7f8fa;--ok:#067647;--warn:#b54708;--bad:#b42318;--accent:#3b5bdb}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:var(--fg);background:var(--bg);overflow-wrap:anywhere}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.8rem 1.5rem;background:#fff;border-bottom:1px solid var(--line)}
header h1{font-size:1.15rem;margin:0}main{padding:1rem 1.5rem;max-width:80rem}
h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:1.2rem 0 .4rem}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(22rem,100%),1fr));gap:1rem}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:.2rem 1rem .9rem;min-width:0}
.big{font-size:1.25rem;font-weight:600;margin:.2rem 0;font-variant-numeric:tabular-nums}.muted{color:var(--muted);margin:.1rem 0 .5rem}
.row,.filters{display:flex;gap:.4rem;margin-top:.4rem;flex-wrap:wrap;align-items:center}.inline{display:inline-flex;gap:.35rem;align-items:center}
button{background:var(--accent);color:#fff;border:0;border-radius:6px;padding:.35rem .8rem;font:inherit;cursor:pointer}
button.secondary{background:#fff;color:var(--fg);border:1px solid var(--line)}
input,select{font:inherit;padding:.3rem .45rem;border:1px solid var(--line);border-radius:6px;background:#fff;max-width:100%;min-width:0}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid var(--line);border-radius:8px;overflow:hidden}
td,th{border-bottom:1px solid var(--line);padding:.35rem .6rem;text-align:left;vertical-align:top}th{background:#fafbfc;font-weight:600;font-size:.85rem}
td{font-variant-numeric:tabular-nums}td.why{color:var(--muted);max-width:34rem}
#requests tbody tr.entry{cursor:pointer}#requests tbody tr.entry:hover,#requests tbody tr.open{background:#f3f5ff}
tr.details td{background:#fbfcfe}pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:.2rem 0 .6rem;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
.details h3{font-size:.8rem;margin:.4rem 0 .1rem}
.pill{display:inline-block;border-radius:999px;padding:.05rem .55rem;font-size:.8rem;font-weight:600;background:#eef0f3}
.s2{color:var(--ok)}.s4{color:var(--warn)}.s5{color:var(--bad)}.pill.ok{background:#dcfae6;color:var(--ok)}.pill.bad{background:#fee4e2;color:var(--bad)}
.count{text-transform:none;letter-spacing:0;font-weight:400;margin-left:.4rem}
#message{min-height:1.2rem;margin:.6rem 0 0;color:var(--bad)}
#token-form{background:#fff;border:1px solid var(--line);border-radius:8px;padding:.8rem 1rem;margin-top:1rem}
@media (max-width:640px){
  header,main{padding-left:.75rem;padding-right:.75rem}
  table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}
  table.stack thead{display:none}
  table.stack tr{border-bottom:2px solid var(--line);padding:.3rem 0}
  table.stack td{border:0;padding:.1rem .6rem;max-width:none}
  table.stack td[data-label]::before{content:attr(data-label) " ";color:var(--muted);font-size:.8rem}
}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
button.row-toggle{background:none;color:var(--accent);padding:0 .25rem;text-decoration:underline;font-variant-numeric:tabular-nums}
#limits-chart{background:#fff;border:1px solid var(--line);border-radius:8px;padding:.4rem 0;min-height:260px;overflow:hidden}
#limits-chart .u-legend{font-size:12px}`;
