import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useMock } from '../support/mock.js';
import { TYPES_FILE, generateTypes } from './generate.js';

const { mock } = useMock();

describe('the generated client types', () => {
  it('are what openapi-typescript generates from the served document today', async () => {
    const generated = await generateTypes(`${mock().url}/openapi.json`);
    if (process.env.UPDATE_SDK_TYPES === '1') writeFileSync(TYPES_FILE, generated);
    expect(generated).toContain('listPets: {');
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(generated);
  });
});
