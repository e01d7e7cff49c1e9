/**
 * The admin page: a self-contained live view over the admin API for QA. It polls the admin API
 * (no build step, no framework). When `--admin-token` is set it takes the token from `?token=`
 * or asks for it (kept for the tab's life in sessionStorage); `?session=` watches one
 * `X-Mock-Session` world, which looking at does not create. It asks for no favicon, so opening it adds
 * nothing to the journal it shows.
 */
export function adminPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>petstore-mock admin</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head><body>
<header><h1>petstore-mock</h1><span id="session-label"></span><span id="live" class="pill">connecting…</span></header>
<main>
<section class="cards">
  <div class="card"><h2>Scenario</h2>
    <p class="big" id="scenario">…</p><p class="muted" id="scenario-description"></p>
    <div class="row"><select id="scenarios" aria-label="scenario"></select><button id="switch">Switch</button><button id="reset" class="secondary">Reset session</button></div>
  </div>
  <div class="card"><h2>Clock</h2>
    <p class="big" id="clock">…</p><p class="muted" id="clock-mode"></p>
    <div class="row"><input id="advance-by" value="61s" size="6" aria-label="advance by"><button id="advance">Advance</button>
      <button id="freeze" class="secondary">Freeze</button></div>
    <div class="row"><input id="set-to" placeholder="2030-12-05T00:00:00Z" size="22" aria-label="set clock to"><button id="set" class="secondary">Set</button></div>
  </div>
</section>
<form id="token-form" hidden><label for="token">This admin API is protected: enter the --admin-token value</label>
  <div class="row"><input id="token" type="password" autocomplete="off" size="24"><button>Open</button></div></form>
<p id="message" role="status"></p>
<h2>Keys</h2>
<table id="keys"><thead><tr><th>key</th><th>plan</th><th>limits</th><th>remaining</th><th>resets</th><th>state</th></tr></thead><tbody></tbody></table>
<h2>Requests <span class="count" id="request-count"></span></h2>
<table id="requests"><thead><tr><th>#</th><th>clock</th><th>request</th><th>status</th><th>key</th><th>why</th></tr></thead><tbody></tbody></table>
</main>
<script>${SCRIPT}</script></body></html>`;
}

const STYLE = `
:root{--fg:#1d2330;--muted:#667085;--line:#e4e7ec;--bg:#f7f8fa;--ok:#067647;--warn:#b54708;--bad:#b42318;--accent:#3b5bdb}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:var(--fg);background:var(--bg)}
header{display:flex;gap:1rem;align-items:center;padding:.8rem 1.5rem;background:#fff;border-bottom:1px solid var(--line)}
header h1{font-size:1.15rem;margin:0}main{padding:1rem 1.5rem;max-width:80rem}
h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:1.2rem 0 .4rem}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(22rem,1fr));gap:1rem}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:.2rem 1rem .9rem}
.big{font-size:1.25rem;font-weight:600;margin:.2rem 0;font-variant-numeric:tabular-nums}.muted{color:var(--muted);margin:.1rem 0 .5rem}
.row{display:flex;gap:.4rem;margin-top:.4rem;flex-wrap:wrap}
button{background:var(--accent);color:#fff;border:0;border-radius:6px;padding:.35rem .8rem;font:inherit;cursor:pointer}
button.secondary{background:#fff;color:var(--fg);border:1px solid var(--line)}
input,select{font:inherit;padding:.3rem .45rem;border:1px solid var(--line);border-radius:6px;background:#fff}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid var(--line);border-radius:8px;overflow:hidden}
td,th{border-bottom:1px solid var(--line);padding:.35rem .6rem;text-align:left;vertical-align:top}th{background:#fafbfc;font-weight:600;font-size:.85rem}
td{font-variant-numeric:tabular-nums}td.why{color:var(--muted);max-width:34rem}
.pill{display:inline-block;border-radius:999px;padding:.05rem .55rem;font-size:.8rem;font-weight:600;background:#eef0f3}
.s2{color:var(--ok)}.s4{color:var(--warn)}.s5{color:var(--bad)}.pill.ok{background:#dcfae6;color:var(--ok)}.pill.bad{background:#fee4e2;color:var(--bad)}
.count{text-transform:none;letter-spacing:0;font-weight:400;margin-left:.4rem}
#message{min-height:1.2rem;margin:.6rem 0 0;color:var(--bad)}
#token-form{background:#fff;border:1px solid var(--line);border-radius:8px;padding:.8rem 1rem;margin-top:1rem}`;

// Runs in the browser: plain DOM, textContent only (journal paths and reasons are request data).
const SCRIPT = `
const params = new URLSearchParams(location.search);
const TOKEN_KEY = 'petstore-mock-admin-token';
const token = params.get('token') || sessionStorage.getItem(TOKEN_KEY);
const session = params.get('session');
const base = { 'Content-Type': 'application/json' };
if (token) base.Authorization = 'Bearer ' + token;
if (session) base['X-Mock-Session'] = session;
const $ = (id) => document.getElementById(id);
async function api(path, init = {}) {
  const res = await fetch('/__admin/' + path, { ...init, headers: base });
  if (res.status === 401) { $('token-form').hidden = false; $('token').focus(); }
  const body = await res.json();
  if (!res.ok) throw new Error(body.message || res.status);
  return body;
}
function cell(text, cls) { const td = document.createElement('td'); td.textContent = String(text); if (cls) td.className = cls; return td; }
function fill(table, items, cells) {
  $(table).tBodies[0].replaceChildren(...items.map((item) => { const tr = document.createElement('tr'); tr.append(...cells(item)); return tr; }));
}
const time = (iso) => iso.replace('T', ' ').replace(/\\.\\d+Z$/, 'Z');
let frozen = false;
async function refresh() {
  try {
    const [scenario, clock, keys, requests] = await Promise.all([api('scenario'), api('clock'), api('keys'), api('requests')]);
    $('scenario').textContent = scenario.name;
    $('scenario-description').textContent = scenario.description;
    $('clock').textContent = time(clock.now);
    frozen = clock.frozen;
    $('clock-mode').textContent = frozen ? 'frozen' : 'running';
    $('freeze').textContent = frozen ? 'Unfreeze' : 'Freeze';
    fill('keys', keys, (k) => [
      cell(k.key), cell(k.plan), cell(k.limits.perMinute + '/min, ' + k.limits.perDay + '/day'),
      cell(k.remaining + ' of ' + k.reportedLimit), cell(time(new Date(k.reset * 1000).toISOString())),
      cell(k.revoked ? 'revoked' : k.bannedUntil ? 'banned until ' + time(k.bannedUntil) : 'ok', k.revoked || k.bannedUntil ? 's5' : 's2'),
    ]);
    const latest = requests.slice(-200).reverse();
    $('request-count').textContent = requests.length + (requests.length === 1 ? ' request' : ' requests') + (requests.length > 200 ? ', latest 200 shown' : '');
    fill('requests', latest, (r) => [
      cell(r.seq), cell(time(r.at)), cell(r.method + ' ' + r.path + (r.query ? '?' + r.query : '')),
      cell(r.status, 's' + String(r.status)[0]), cell(r.key || ''), cell((r.code ? r.code + ': ' : '') + r.reason, 'why'),
    ]);
    $('live').textContent = 'live';
    $('live').className = 'pill ok';
  } catch (error) {
    $('live').textContent = 'disconnected';
    $('live').className = 'pill bad';
  }
}
async function act(run) {
  $('message').textContent = '';
  try { await run(); } catch (error) { $('message').textContent = String(error.message || error); }
  await refresh();
}
let polling = false;
async function init() {
  if (session) $('session-label').textContent = 'session ' + session;
  $('message').textContent = '';
  try {
    const list = await api('scenarios');
    $('scenarios').replaceChildren(...list.map((s) => { const o = document.createElement('option'); o.value = s.name; o.textContent = s.name; o.title = s.description; return o; }));
    $('scenarios').value = (await api('scenario')).name;
  } catch (error) { $('message').textContent = String(error.message || error); }
  $('switch').onclick = () => act(() => api('scenario', { method: 'PUT', body: JSON.stringify({ name: $('scenarios').value }) }));
  $('reset').onclick = () => act(() => api('reset', { method: 'POST' }));
  $('advance').onclick = () => act(() => api('clock', { method: 'POST', body: JSON.stringify({ advance: $('advance-by').value.trim() }) }));
  $('set').onclick = () => act(() => api('clock', { method: 'POST', body: JSON.stringify({ set: $('set-to').value.trim() }) }));
  $('freeze').onclick = () => act(() => api('clock', { method: 'POST', body: JSON.stringify({ frozen: !frozen }) }));
  await refresh();
  if (!polling) { polling = true; setInterval(refresh, 500); }
}
$('token-form').onsubmit = (event) => {
  event.preventDefault();
  const value = $('token').value.trim();
  if (!value) return;
  sessionStorage.setItem(TOKEN_KEY, value);
  base.Authorization = 'Bearer ' + value;
  $('token-form').hidden = true;
  init();
};
init();`;
