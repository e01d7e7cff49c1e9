// The admin page's script. It runs in the browser: plain DOM, textContent only (journal paths,
// reasons, headers and bodies are request data, never markup). State changes are sent as JSON.
export const ADMIN_SCRIPT = `
const params = new URLSearchParams(location.search);
const TOKEN_KEY = 'petstore-mock-admin-token';
let token = params.get('token') || sessionStorage.getItem(TOKEN_KEY);
let session = params.get('session') || 'default';
const $ = (id) => document.getElementById(id);
// Calls about the whole mock take no session (the admin API refuses one there).
const GLOBAL = ['sessions', 'scenarios'];
function headers(path) {
  const h = { 'Content-Type': 'application/json' };
  if (token) h.Authorization = 'Bearer ' + token;
  if (session !== 'default' && !GLOBAL.includes(path)) h['X-Mock-Session'] = session;
  return h;
}
async function api(path, init = {}) {
  const sent = token;
  const res = await fetch('/__admin/' + path, { ...init, headers: headers(path) });
  // A protected admin API: the page asks for the token rather than showing the 401; not for a
  // call that left before the token was entered (the pollers run meanwhile).
  if (res.status === 401 && token === sent) { $('token-form').hidden = false; $('token').focus(); }
  const body = await res.json();
  if (!res.ok) { const error = new Error(body.message || res.status); error.status = res.status; throw error; }
  return body;
}
function cell(text, cls, label) {
  const td = document.createElement('td'); td.textContent = String(text);
  if (cls) td.className = cls;
  if (label) td.dataset.label = label;
  return td;
}
const KEY_LABELS = ['key', 'plan', 'limits', 'remaining', 'resets', 'state'];
const REQUEST_LABELS = ['#', 'clock', 'request', 'status', 'key', 'why'];
// A key's windows as the banner writes them: 60/min, 1000/day, 10/s, 500/h.
const UNITS = { 1000: 's', 60000: 'min', 3600000: 'h', 86400000: 'day' };
const windowText = (w) => w.max + '/' + (UNITS[w.lengthMs] || w.lengthMs + 'ms');
function row(cells, labels) { const tr = document.createElement('tr'); cells.forEach((td, i) => { td.dataset.label = labels[i]; tr.append(td); }); return tr; }
const time = (iso) => iso.replace('T', ' ').replace(/\\.\\d+Z$/, 'Z');
let frozen = false;
const open = new Set();

function filterQuery() {
  const q = new URLSearchParams();
  for (const name of ['method', 'path', 'status', 'code', 'key']) {
    const value = $('f-' + name).value.trim();
    if (value) q.set(name, value);
  }
  return q;
}

function block(title, text) {
  const h = document.createElement('h3'); h.textContent = title;
  const pre = document.createElement('pre'); pre.textContent = text;
  return [h, pre];
}
function message(m) {
  const lines = Object.entries(m.headers).map(([k, v]) => k + ': ' + v).join('\\n');
  const body = m.body === undefined ? '(no body)' : m.body + (m.truncated ? '\\n… truncated at 4 KiB of ' + m.bodyBytes + ' bytes' : '');
  return [lines, body];
}
function detailsRow(r) {
  const tr = document.createElement('tr'); tr.className = 'details';
  const td = document.createElement('td'); td.colSpan = 6;
  if (!r.details) {
    td.append(...block('Details', 'Headers and bodies were not recorded for this request. Tick "record headers and bodies" to record the next ones.'));
  } else {
    const [reqHeaders, reqBody] = message(r.details.request);
    const [resHeaders, resBody] = message(r.details.response);
    td.append(...block('Request headers', reqHeaders), ...block('Request body', reqBody), ...block('Answer headers', resHeaders), ...block('Answer body', resBody));
  }
  tr.append(td);
  return tr;
}

async function refreshSessions() {
  const list = await api('sessions');
  const ids = list.map((s) => s.id);
  if (!ids.includes(session)) ids.push(session);
  const select = $('session');
  const current = [...select.options].map((o) => o.value).join('\\n');
  if (current !== ids.join('\\n')) {
    select.replaceChildren(...ids.map((id) => {
      const o = document.createElement('option'); o.value = id;
      const s = list.find((x) => x.id === id);
      o.textContent = s ? id + ' (' + s.requests + ')' : id;
      return o;
    }));
  } else {
    [...select.options].forEach((o) => { const s = list.find((x) => x.id === o.value); if (s) o.textContent = o.value + ' (' + s.requests + ')'; });
  }
  select.value = session;
}

async function refreshRequests() {
  const q = filterQuery();
  let count, requests;
  try {
    count = await api('requests/count?' + q);
    q.set('limit', '200'); q.set('details', '1');
    requests = await api('requests?' + q);
    $('filter-message').textContent = '';
  } catch (error) {
    if (error.status !== 400) throw error;
    $('filter-message').textContent = String(error.message);
    return;
  }
  const filtered = [...filterQuery().keys()].length > 0;
  const n = count.count;
  $('request-count').textContent = n + (n === 1 ? ' request' : ' requests') + (filtered ? ' match' : '') + (n > 200 ? ', latest 200 shown' : '');
  // The table is drawn anew each time: a focused row's button gets the focus back.
  const focused = $('requests').contains(document.activeElement) ? document.activeElement.dataset.seq : undefined;
  const rows = [];
  for (const r of requests.slice().reverse()) {
    const tr = row([
      toggleCell(r.seq), cell(time(r.at)), cell(r.method + ' ' + r.path + (r.query ? '?' + r.query : '')),
      cell(r.status, 's' + String(r.status)[0]), cell(r.key || ''), cell((r.code ? r.code + ': ' : '') + r.reason, 'why'),
    ], REQUEST_LABELS);
    tr.className = 'entry' + (open.has(r.seq) ? ' open' : '');
    tr.dataset.seq = r.seq;
    tr.onclick = () => toggle(r.seq);
    rows.push(tr);
    if (open.has(r.seq)) rows.push(detailsRow(r));
  }
  $('requests').tBodies[0].replaceChildren(...rows);
  if (focused) $('requests').querySelector('button[data-seq="' + focused + '"]')?.focus();
}
// A row opens and closes by its number, a button: Tab reaches it, Enter or Space opens the row,
// and Escape closes it again, anywhere in the row or its details.
function toggleCell(seq) {
  const td = document.createElement('td');
  const button = document.createElement('button');
  button.type = 'button'; button.className = 'row-toggle'; button.textContent = String(seq); button.dataset.seq = seq;
  button.setAttribute('aria-expanded', String(open.has(seq)));
  button.setAttribute('aria-label', 'request ' + seq + ': ' + (open.has(seq) ? 'hide' : 'show') + ' headers and bodies');
  td.append(button);
  return td;
}
function toggle(seq) { if (open.has(seq)) open.delete(seq); else open.add(seq); refreshRequests().catch(() => {}); }
$('requests').addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  let tr = event.target.closest('tr');
  if (tr && tr.classList.contains('details')) tr = tr.previousElementSibling;
  const seq = tr ? Number(tr.dataset.seq) : NaN;
  if (!open.has(seq)) return;
  event.preventDefault();
  tr.querySelector('button.row-toggle').focus();
  toggle(seq);
});

async function refresh() {
  try {
    const [scenario, clock, keys, journal] = await Promise.all([api('scenario'), api('clock'), api('keys'), api('journal')]);
    $('scenario').textContent = scenario.name;
    $('scenario-description').textContent = scenario.description;
    const declared = (scenario.definition && scenario.definition.operations) || [];
    $('scenario-operations').textContent = declared.length ? 'Declared: ' + declared.map((o) => o.method + ' ' + o.path + ' (' + o.operationId + ')').join(', ') : '';
    $('clock').textContent = time(clock.now);
    frozen = clock.frozen;
    $('clock-mode').textContent = frozen ? 'frozen' : 'running';
    $('freeze').textContent = frozen ? 'Unfreeze' : 'Freeze';
    $('record').checked = journal.details;
    $('keys').tBodies[0].replaceChildren(...keys.map((k) => row([
      cell(k.key), cell(k.plan), cell(k.limits.map(windowText).join(', ')),
      cell(k.remaining + ' of ' + k.reportedLimit), cell(time(new Date(k.reset * 1000).toISOString())),
      cell(k.revoked ? 'revoked' : k.bannedUntil ? 'banned until ' + time(k.bannedUntil) : 'ok', k.revoked || k.bannedUntil ? 's5' : 's2'),
    ], KEY_LABELS)));
    await Promise.all([refreshRequests(), refreshSessions()]);
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
function showSession() {
  $('session-label').textContent = session === 'default' ? '' : 'session ' + session;
}
async function loadScenarios() {
  const list = await api('scenarios');
  $('scenarios').replaceChildren(...list.map((s) => { const o = document.createElement('option'); o.value = s.name; o.textContent = s.name; o.title = s.description; return o; }));
  $('scenarios').value = (await api('scenario')).name;
}
let polling = false;
async function init() {
  showSession();
  $('message').textContent = '';
  try { await loadScenarios(); } catch (error) { $('message').textContent = String(error.message || error); }
  $('switch').onclick = () => act(() => api('scenario', { method: 'PUT', body: JSON.stringify({ name: $('scenarios').value }) }));
  $('reset').onclick = () => act(() => api('reset', { method: 'POST' }));
  // Forms, so Enter in a clock field does what its button does.
  $('advance-form').onsubmit = (event) => { event.preventDefault(); act(() => api('clock', { method: 'POST', body: JSON.stringify({ advance: $('advance-by').value.trim() }) })); };
  $('set-form').onsubmit = (event) => { event.preventDefault(); act(() => api('clock', { method: 'POST', body: JSON.stringify({ set: $('set-to').value.trim() }) })); };
  $('freeze').onclick = () => act(() => api('clock', { method: 'POST', body: JSON.stringify({ frozen: !frozen }) }));
  $('record').onchange = () => act(() => api('journal', { method: 'PUT', body: JSON.stringify({ details: $('record').checked }) }));
  $('session').onchange = () => act(async () => {
    session = $('session').value;
    open.clear();
    const url = new URL(location.href);
    if (session === 'default') url.searchParams.delete('session'); else url.searchParams.set('session', session);
    history.replaceState(null, '', url);
    showSession();
    await loadScenarios();
  });
  $('filter').onsubmit = (event) => { event.preventDefault(); refresh(); };
  $('filter').oninput = () => refresh();
  $('f-clear').onclick = () => { $('filter').reset(); refresh(); };
  await refresh();
  if (!polling) { polling = true; setInterval(refresh, 500); }
}
$('token-form').onsubmit = (event) => {
  event.preventDefault();
  const value = $('token').value.trim();
  if (!value) return;
  sessionStorage.setItem(TOKEN_KEY, value);
  token = value;
  $('token-form').hidden = true;
  init();
};
init();

// Download HAR: the journal as the filters show it (GET /__admin/requests?format=har), for a bug report.
function download(blob, name) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
$('har-download').onclick = async () => {
  const q = filterQuery();
  q.set('format', 'har');
  const res = await fetch('/__admin/requests?' + q, { headers: headers() });
  if (!res.ok) { $('message').textContent = (await res.json()).message || String(res.status); return; }
  download(await res.blob(), (/filename="([^"]+)"/.exec(res.headers.get('content-disposition') || '') || [])[1] || 'petstore-mock.har');
};
// The selected session's snapshot downloaded, and one uploaded into it (docs/snapshots.md).
$('snapshot-download').onclick = () => act(async () => {
  const res = await fetch('/__admin/snapshot', { headers: headers() });
  if (!res.ok) throw new Error((await res.json()).message || String(res.status));
  download(await res.blob(), 'petstore-mock-' + session + '.snapshot.json');
});
$('snapshot-upload').onclick = () => $('snapshot-file').click();
$('snapshot-file').onchange = () => act(async () => {
  const file = $('snapshot-file').files[0];
  $('snapshot-file').value = '';
  if (file) await api('snapshot', { method: 'PUT', body: await file.text() });
});`;
