// listPets on Redis: the base's animals come from the settings, the created ones from the
// session's lists (all, and one per status), read by the script only when the page reaches them.
// The ids the session removed (its field `rm`, removed-field.ts) come with the page, which then
// reads that many more.
import type { ListInput } from '../../core/operations/list-pets.js';
import { petJson } from '../../core/state/base-data.js';
import { keptFirst } from '../../core/state/store.js';
import { removedIds } from '../removed-field.js';
import type { RedisOperation } from './redis-operation.js';

export const listPets: RedisOperation<ListInput> = {
  op: 'list',
  lua: `
      local count = q.count or 0
      local removed = c.f.rm
      if removed and removed ~= '' then
        out.gone = removed
        for _ in string.gmatch(removed, '%d+') do count = count + 1 end
      end
      if count > 0 then
        local status = q.status or ''
        local lk = status == '' and mk .. ':p' or mk .. ':p:' .. status
        pushNow(lk)
        out.data = redis.call('LRANGE', lk, 0, count - 1)
      end`,
  fields(input, s, _baseStore, local) {
    const { limit, status } = input;
    local.inBase = status ? (s.base.byStatus.get(status)?.length ?? 0) : s.base.all.length;
    // Negative when the page ends in the base: the script reads past it only for removed ids.
    return { op: 'list', status: status ?? '', count: limit - local.inBase };
  },
  dataOf(input, s, d, local) {
    const { limit, status } = input;
    const created = Array.isArray(d.data) ? d.data : [];
    if (d.gone !== undefined) {
      const removed = new Set(removedIds(d.gone));
      const base = keptFirst([status ? (s.base.byStatus.get(status) ?? []) : s.base.all], (pet) => !removed.has(pet.id), limit).map(petJson);
      const rest = keptFirst([created], (json) => !removed.has(createdId(json)), limit - base.length);
      return { body: `[${[...base, ...rest].join(',')}]` };
    }
    if (created.length === 0) return { body: s.base.listBody(limit, status) };
    const inBase = s.base.listBody(local.inBase ?? 0, status).slice(1, -1);
    return { body: `[${[inBase, ...created].filter((part) => part !== '').join(',')}]` };
  },
};

/** The id of a created animal's JSON, which `petJson` writes first. */
function createdId(json: string): number {
  return Number(/^\{"id":(\d+)/.exec(json)?.[1]);
}
