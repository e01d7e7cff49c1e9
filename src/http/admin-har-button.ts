/**
 * The admin page's "Download HAR" button: the journal, as the filters show it, as a HAR file for
 * a bug report (GET /__admin/requests?format=har). It uses the page script's helpers (`$`,
 * `headers`, `filterQuery`), so the token, the session and the filters apply.
 */
export const HAR_BUTTON = `<button type="button" id="har-download" class="secondary">Download HAR</button>`;

export const HAR_SCRIPT = `
$('har-download').onclick = async () => {
  const q = filterQuery();
  q.set('format', 'har');
  const res = await fetch('/__admin/requests?' + q, { headers: headers() });
  if (!res.ok) { $('message').textContent = (await res.json()).message || String(res.status); return; }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = (/filename="([^"]+)"/.exec(res.headers.get('content-disposition') || '') || [])[1] || 'petstore-mock.har';
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
};`;
