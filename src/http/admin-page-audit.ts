// The admin page's client audit panel: its markup and the script that fills it from
// GET /__admin/audit. Kept apart from the rest of the page; it uses only the page's `api`, `cell`
// and `row` helpers, and polls on its own.

/** The panel's markup, placed after the keys table. */
export const AUDIT_PANEL = `<h2>Client audit <span class="count" id="audit-summary"></span></h2>
<p class="muted">Whether the clients of this session behave as the specification asks: waiting Retry-After, backing off, stopping when banned, leaving the deprecated call. <a href="https://github.com/petstore-mock/petstore-mock/blob/main/docs/audit.md">The rules</a>.</p>
<table id="audit" class="stack"><thead><tr><th>rule</th><th>key</th><th>requests</th><th>what the client did</th></tr></thead><tbody></tbody></table>`;

/** The panel's script; runs after the page's own script. */
export const AUDIT_SCRIPT = `
const AUDIT_LABELS = ['rule', 'key', 'requests', 'what'];
async function refreshAudit() {
  let report;
  try { report = await api('audit'); } catch { return; }
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  const warnings = report.findings.length - errors;
  const summary = $('audit-summary');
  summary.textContent = report.findings.length === 0 ? 'no findings' : errors + (errors === 1 ? ' error, ' : ' errors, ') + warnings + (warnings === 1 ? ' warning' : ' warnings');
  summary.className = 'count ' + (errors > 0 ? 's5' : warnings > 0 ? 's4' : 's2');
  $('audit').tBodies[0].replaceChildren(...report.findings.map((f) => {
    const shown = f.requests.slice(0, 12).map((s) => '#' + s).join(' ') + (f.requests.length > 12 ? ' … (' + f.requests.length + ')' : '');
    const tr = row([cell(f.rule + ' (' + f.severity + ')', f.severity === 'error' ? 's5' : 's4'), cell(f.key ?? ''), cell(shown), cell(f.message, 'why')], AUDIT_LABELS);
    tr.className = 'finding ' + f.severity;
    return tr;
  }));
}
refreshAudit();
setInterval(refreshAudit, 1000);
`;
