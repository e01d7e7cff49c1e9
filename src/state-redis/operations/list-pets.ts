// listPets on Redis: the base's animals come from the settings, the created ones from the
// session's lists (all, and one per status), read by the script only when the page reaches them.
import type { ListInput } from '../../core/operations/list-pets.js';
import type { RedisOperation } from './redis-operation.js';

export const listPets: RedisOperation<ListInput> = {
  op: 'list',
  lua: `
      if (q.count or 0) > 0 then
        local status = q.status or ''
        local lk = status == '' and mk .. ':p' or mk .. ':p:' .. status
        pushNow(lk)
        out.data = redis.call('LRANGE', lk, 0, q.count - 1)
      end`,
  fields(input, s, _baseStore, local) {
    const { limit, status } = input;
    local.inBase = status ? (s.base.byStatus.get(status)?.length ?? 0) : s.base.all.length;
    return { op: 'list', status: status ?? '', count: Math.max(0, limit - local.inBase) };
  },
  dataOf(input, s, d, local) {
    const { limit, status } = input;
    const created = Array.isArray(d.data) ? d.data : [];
    if (created.length === 0) return { body: s.base.listBody(limit, status) };
    const inBase = s.base.listBody(local.inBase ?? 0, status).slice(1, -1);
    return { body: `[${[inBase, ...created].filter((part) => part !== '').join(',')}]` };
  },
};
