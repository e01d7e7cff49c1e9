/**
 * The admin page's snapshot controls: download the selected session's snapshot, and upload one
 * into it (GET and PUT /__admin/snapshot; docs/snapshots.md). Apart from the page so it moves with
 * the other scripts: no inline handler attributes, buttons a keyboard reaches, and a file input
 * opened by its button. It uses the page script's helpers (`$`, `headers`, `api`, `act`, `session`).
 */
export const SNAPSHOT_BUTTONS = `<span class="inline" role="group" aria-label="snapshot of this session">
<button type="button" id="snapshot-download" class="secondary">Download snapshot</button>
<button type="button" id="snapshot-upload" class="secondary">Upload snapshot…</button>
<input type="file" id="snapshot-file" accept=".json,application/json" hidden aria-label="snapshot file"></span>`;

export const SNAPSHOT_SCRIPT = `
$('snapshot-download').onclick = () => act(async () => {
  const res = await fetch('/__admin/snapshot', { headers: headers() });
  if (!res.ok) throw new Error((await res.json()).message || String(res.status));
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = 'petstore-mock-' + session + '.snapshot.json';
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
});
$('snapshot-upload').onclick = () => $('snapshot-file').click();
$('snapshot-file').onchange = () => act(async () => {
  const file = $('snapshot-file').files[0];
  $('snapshot-file').value = '';
  if (file) await api('snapshot', { method: 'PUT', body: await file.text() });
});`;
