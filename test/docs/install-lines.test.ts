import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The docs' examples run in this repository against its own devDependencies (test/recipes,
// test/e2e/pack*.test.ts, test/docs). What a reader installs is what they then get from the
// registry: so every install line pins each package to the version tested here, and a newer major
// that breaks a recipe (TypeScript 6 did) reaches the docs only with the repository's own upgrade.
const pages = [
  'README.md',
  ...readdirSync(new URL('../../docs', import.meta.url))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Every package named by an `npm i`/`npm install` command of the pages, with where it is. */
function installed(): { page: string; spec: string }[] {
  const found: { page: string; spec: string }[] = [];
  for (const page of pages) {
    const text = readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8');
    for (const m of text.matchAll(/\bnpm (?:i|install)\b([^`\n#&;]*)/g)) {
      for (const arg of (m[1] ?? '').trim().split(/\s+/)) {
        if (arg === '' || arg.startsWith('-') || arg === 'petstore-mock') continue;
        // Sources of petstore-mock itself: a git URL, a tarball or a clone.
        if (/^(git\+|https?:|file:|\.{0,2}\/|~)|\.tgz$|<.*>/.test(arg)) continue;
        found.push({ page, spec: arg });
      }
    }
  }
  return found;
}

describe('install lines of the docs', () => {
  const lines = installed();
  it('name packages at all (the scan finds them)', () => {
    expect(lines.map((l) => l.spec)).toEqual(expect.arrayContaining(['typescript@5.9', 'jest@30', 'msw@2']));
  });

  it.each(lines)('$page installs $spec, the version this repository tests', ({ spec }) => {
    const at = spec.lastIndexOf('@');
    expect(at, `${spec} names no version`).toBeGreaterThan(0);
    const name = spec.slice(0, at);
    const pinned = spec.slice(at + 1);
    const { version } = JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string };
    expect(`${version}.`.startsWith(`${pinned}.`), `${spec} against ${name} ${version} installed here`).toBe(true);
  });
});
