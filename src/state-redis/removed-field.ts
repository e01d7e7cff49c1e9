// The ids a session removed, as its hash keeps them (field `rm`): `,2,17,` with a comma at each
// end, so the script tells whether it holds an id by one plain find (`,17,`), and a request reads
// it with the session's other fields in the one HMGET it pays anyway.

/** The field's text for these ids; '' for none. */
export function removedField(ids: readonly number[]): string {
  return ids.length === 0 ? '' : `,${ids.join(',')},`;
}

/** The ids of the field's text, ascending. */
export function removedIds(field: string | undefined): number[] {
  if (field === undefined || field === '') return [];
  return field
    .split(',')
    .filter((part) => part !== '')
    .map(Number)
    .sort((a, b) => a - b);
}
