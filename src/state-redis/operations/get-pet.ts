// getPet on Redis: an animal of the base is found here; one created in the session is read by
// the script from the session's list, at its place after the base's last id.
import type { GetInput } from '../../core/operations/get-pet.js';
import { petJson } from '../../core/state/base-data.js';
import type { RedisOperation } from './redis-operation.js';

export const getPet: RedisOperation<GetInput> = {
  op: 'get',
  lua: `
      pushNow(mk .. ':p')
      out.data = redis.call('LINDEX', mk .. ':p', q.index or 0)`,
  fields(input, s, baseStore, local) {
    const { id } = input;
    const inBase = baseStore.get(id);
    if (inBase) local.found = petJson(inBase);
    if (typeof id !== 'number' || id <= s.base.maxId) return undefined;
    local.pending = true;
    return { op: 'get', index: id - (s.base.maxId + 1) };
  },
  dataOf(_input, _s, d, local) {
    const found = local.pending ? (typeof d.data === 'string' ? d.data : undefined) : local.found;
    return found === undefined ? undefined : { body: found };
  },
};
