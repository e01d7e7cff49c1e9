/** The admin page: a small self-contained view over the admin API. */
export function adminPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>petstore-mock admin</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.25rem .5rem;text-align:left}code{background:#f4f4f4;padding:0 .2rem}</style>
</head><body>
<h1>petstore-mock</h1>
<p>Scenario: <strong id="scenario">…</strong> <select id="scenarios"></select> <button id="switch">Switch</button>
<button id="reset">Reset</button></p>
<p>Clock: <code id="clock">…</code> <button id="advance">+61s</button></p>
<h2>Keys</h2><table id="keys"><thead><tr><th>key</th><th>plan</th><th>remaining</th><th>limit</th><th>banned until</th></tr></thead><tbody></tbody></table>
<h2>Requests</h2><table id="requests"><thead><tr><th>#</th><th>time</th><th>method</th><th>path</th><th>status</th><th>why</th></tr></thead><tbody></tbody></table>
<script>
const token = new URLSearchParams(location.search).get('token');
const headers = token ? { Authorization: 'Bearer ' + token } : {};
const api = (path, init = {}) => fetch('/__admin/' + path, { ...init, headers: { ...headers, 'Content-Type': 'application/json', ...(init.headers || {}) } }).then((r) => r.json());
const cell = (text) => { const td = document.createElement('td'); td.textContent = String(text); return td; };
const rows = (id, items, fields) => { const body = document.querySelector('#' + id + ' tbody'); body.replaceChildren(...items.map((item) => { const tr = document.createElement('tr'); tr.append(...fields(item).map(cell)); return tr; })); };
async function refresh() {
  const [scenario, clock, keys, requests] = await Promise.all([api('scenario'), api('clock'), api('keys'), api('requests')]);
  document.getElementById('scenario').textContent = scenario.name;
  document.getElementById('clock').textContent = clock.now + (clock.frozen ? ' (frozen)' : '');
  rows('keys', keys, (k) => [k.key, k.plan, k.remaining, k.reportedLimit, k.bannedUntil || '']);
  rows('requests', requests.slice(-50).reverse(), (r) => [r.seq, r.at, r.method, r.path + (r.query ? '?' + r.query : ''), r.status, r.reason]);
}
async function init() {
  const list = await api('scenarios');
  document.getElementById('scenarios').replaceChildren(...list.map((s) => { const o = document.createElement('option'); o.value = s.name; o.textContent = s.name; o.title = s.description; return o; }));
  document.getElementById('switch').onclick = async () => { await api('scenario', { method: 'PUT', body: JSON.stringify({ name: document.getElementById('scenarios').value }) }); refresh(); };
  document.getElementById('reset').onclick = async () => { await api('reset', { method: 'POST' }); refresh(); };
  document.getElementById('advance').onclick = async () => { await api('clock', { method: 'POST', body: JSON.stringify({ advance: '61s' }) }); refresh(); };
  await refresh();
  setInterval(refresh, 1000);
}
init();
</script></body></html>`;
}
