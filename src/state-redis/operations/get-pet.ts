// getPet on Redis: an animal of the base is found here; one created in the session is read by
// the script from the session's list, at its place after the base's last id. Either is gone
// when the session's removed ids (its field `rm`, removed-field.ts; the store's `removed`) hold it.
import type { GetInput } from '../../core/operations/get-pet.js';
import { petJson } from '../../core/state/base-data.js';
import type { RedisOperation } from './redis-operation.js';

export const getPet: RedisOperation<GetInput> = {
  op: 'get',
  lua: `
      if not string.find(c.f.rm or '', ',' .. q.rid .. ',', 1, true) then
        if (q.created or 0) == 1 then
          pushNow(mk .. ':p')
          out.data = redis.call('LINDEX', mk .. ':p', q.index or 0)
        else
          out.data = 'b'
        end
      end`,
  fields(input, s, baseStore, local) {
    const { id } = input;
    if (typeof id !== 'number') return undefined;
    const inBase = baseStore.get(id);
    if (inBase) {
      local.found = petJson(inBase);
      return { op: 'get', rid: String(id), created: 0, index: 0 };
    }
    if (id <= s.base.maxId) return undefined;
    local.pending = true;
    return { op: 'get', rid: String(id), created: 1, index: id - (s.base.maxId + 1) };
  },
  dataOf(_input, _s, d, local) {
    if (typeof d.data !== 'string') return undefined;
    const found = local.pending ? d.data : local.found;
    return found === undefined ? undefined : { body: found };
  },
};
