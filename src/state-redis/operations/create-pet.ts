// createPet on Redis: the script gives the id and keeps the store's bounds (store.ts's twin); the
// animal's JSON after its id is made here, once.
import type { NewPetInput } from '../../core/input/validation.js';
import { MAX_CREATED_BYTES, MAX_CREATED_PETS, createdPetBytes, storeFullError } from '../../core/state/store.js';
import { petJson } from '../../core/state/base-data.js';
import type { RedisOperation } from './redis-operation.js';

export const createPet: RedisOperation<NewPetInput> = {
  op: 'create',
  lua: `
      -- The store's bounds, in the order store.ts checks them: an id a JSON client reads exactly, then room.
      local status = q.status or ''
      local id, pc, cb, bytes = tonumber(c.f.nid), tonumber(c.f.pc or '0'), tonumber(c.f.cb or '0'), q.bytes or 0
      if id > 9007199254740991 then
        out.full = 'id'
      elseif pc >= (q.maxCreated or 0) or cb + bytes > (q.maxBytes or 0) then
        out.full = 'room'
      else
        local json = '{"id":' .. s(id) .. (q.tail or '')
        put(c, 'nid', s(id + 1)); put(c, 'pc', s(pc + 1)); put(c, 'cb', s(cb + bytes))
        push(mk .. ':p', json, sid)
        if status ~= '' then push(mk .. ':p:' .. status, json, sid) end
        out.data = s(id)
      end`,
  fields(input, _s, _baseStore, local) {
    local.tail = petJson({ id: 0, ...input }).slice('{"id":0'.length);
    return {
      op: 'create',
      status: input.status ?? '',
      tail: local.tail,
      bytes: createdPetBytes(input),
      maxCreated: MAX_CREATED_PETS,
      maxBytes: MAX_CREATED_BYTES,
    };
  },
  dataOf(_input, _s, d, local) {
    if (d.full) return { error: storeFullError(d.full) };
    const id = String(d.data);
    return { body: `{"id":${id}${local.tail ?? '}'}`, createdId: id };
  },
};
