import { NonInteger, parseJsonText, type JsonValue } from './json.js';
import { PET_STATUSES } from './openapi.js';
import type { Pet, PetStatus } from '../types.js';
import { UserError } from '../errors.js';

/** Why a file could not be read, in words: "no such file" rather than ENOENT. */
export function readFailure(error: unknown): string {
  if (error instanceof UnreadableFile) return error.message;
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? String(error);
}

/** A file petstore-mock refuses to read (not a regular file, or past its size cap); the message says why. */
export class UnreadableFile extends Error {
  override name = 'UnreadableFile';
}

/** A fixture file that cannot be used; the message names the file and what to fix. */
export class FixtureError extends UserError {
  override name = 'FixtureError';
}

/**
 * Reads animals from fixture text: a JSON array of animals, or a json-server `db.json` object
 * with a `pets` array. Ids may be numbers or numeric strings (json-server writes both); animals
 * without an id get the next free ones, after the largest given id.
 */
export function parseFixtures(text: string, source: string): Pet[] {
  let parsed: JsonValue;
  try {
    parsed = parseJsonText(text).value;
  } catch (error) {
    throw new FixtureError(`${source} is not valid JSON (${(error as Error).message}); fix the file or drop --fixtures.`);
  }
  let items: JsonValue;
  if (Array.isArray(parsed)) items = parsed;
  else if (parsed !== null && typeof parsed === 'object' && !(parsed instanceof NonInteger) && Array.isArray(parsed.pets)) items = parsed.pets;
  else throw new FixtureError(`${source} must hold a JSON array of animals or a json-server db.json with a "pets" array.`);
  return checkPets(items, source);
}

/**
 * Checks animals from a file or from the library's `fixtures` option, which reach the store as
 * they are: each needs a string name and an integer categoryId, ids must be unique positive
 * integers, and animals without an id get the next free ones.
 */
export function checkPets(items: readonly unknown[], source: string): Pet[] {
  const pets: Pet[] = [];
  const pending: { name: string; categoryId: number | bigint; status?: PetStatus }[] = [];
  const ids = new Set<number>();
  items.forEach((item, index) => {
    const where = `${source}: animal #${index + 1}`;
    if (item === null || typeof item !== 'object' || Array.isArray(item) || item instanceof NonInteger)
      throw new FixtureError(`${where} is not a JSON object.`);
    const { id, name, categoryId, status } = item as { id?: unknown; name?: unknown; categoryId?: unknown; status?: unknown };
    if (typeof name !== 'string') throw new FixtureError(`${where} needs a string "name".`);
    if (!(typeof categoryId === 'bigint' || (typeof categoryId === 'number' && Number.isInteger(categoryId)))) {
      throw new FixtureError(`${where} needs an integer "categoryId".`);
    }
    if (status !== undefined && !(PET_STATUSES as readonly unknown[]).includes(status)) {
      throw new FixtureError(`${where} has status ${JSON.stringify(status)}; use one of ${PET_STATUSES.join(', ')}.`);
    }
    const fields = status === undefined ? { name, categoryId } : { name, categoryId, status: status as PetStatus };
    if (id === undefined) {
      pending.push(fields);
      return;
    }
    const numericId = typeof id === 'string' && /^\d{1,15}$/.test(id) ? Number(id) : id;
    if (typeof numericId !== 'number' || !Number.isSafeInteger(numericId) || numericId < 1) {
      throw new FixtureError(`${where} has id ${JSON.stringify(String(id))}; ids must be positive integers below 2^53.`);
    }
    if (ids.has(numericId)) throw new FixtureError(`${where} repeats id ${numericId}; ids must be unique.`);
    ids.add(numericId);
    pets.push({ id: numericId, ...fields });
  });
  let next = pets.reduce((max, p) => Math.max(max, p.id), 0) + 1;
  for (const fields of pending) pets.push({ id: next++, ...fields });
  return pets;
}
