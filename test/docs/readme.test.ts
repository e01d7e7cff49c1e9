import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/core/errors.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('lists every error code of the catalogue with its status, and no other', () => {
    const rows = [...readme.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([code, v]) => [code, v.status])));
  });

  it('gives the two set-up commands', () => {
    expect(readme).toContain('npm install && npx petstore-mock');
    expect(readme).toContain('npm test');
  });
});
