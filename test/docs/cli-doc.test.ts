import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envName } from '../../src/cli/env-options.js';
import { OPTIONS } from '../../src/cli/options.js';

const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');

describe('docs/cli.md', () => {
  it('has one row per flag of the option table, with its alias and default, and no other', () => {
    const rows = [...doc.matchAll(/^\| `--([a-z-]+)`(?:, `-([a-z])`)? \|[^|]*\|([^|]*)\|/gm)].map((m) => ({
      flag: m[1],
      alias: m[2],
      def: (m[3] ?? '').trim(),
    }));
    expect(rows.map((r) => r.flag)).toEqual(OPTIONS.map((o) => o.flag));
    for (const option of OPTIONS) {
      const row = rows.find((r) => r.flag === option.flag);
      expect(row?.alias).toBe('alias' in option ? option.alias : undefined);
      if ('default' in option) expect(row?.def).toBe(`\`${option.default}\``);
    }
  });

  it('lists the environment variable of every flag, and no other', () => {
    const rows = [...doc.matchAll(/^\| `(PETSTORE_MOCK_[A-Z_]+)` \| `--([a-z-]+)` \|$/gm)].map((m) => [m[2], m[1]]);
    expect(rows).toEqual(OPTIONS.map((o) => [o.flag, envName(o)]));
  });

  it('documents the three ways to send the admin token', () => {
    for (const way of ['Authorization: Bearer $TOKEN', 'X-Admin-Token: $TOKEN', '?token=$TOKEN']) expect(doc).toContain(way);
  });
});
