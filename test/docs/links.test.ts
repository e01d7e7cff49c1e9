import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REPOSITORY = 'https://github.com/petstore-mock/petstore-mock';

/** The files `npm pack` puts in the tarball, as paths from the repository root. */
const shipped = new Set(
  (
    JSON.parse(
      execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }),
    ) as { files: { path: string }[] }[]
  )[0]!.files.map((f) => f.path),
);

const pages = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

function links(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** Why a link from `file` does not work, or undefined when it does. */
function broken(file: string, link: string): string | undefined {
  let target: string;
  let anchor: string | undefined;
  if (link.startsWith('#')) {
    target = file;
    anchor = link.slice(1);
  } else if (/^https?:/.test(link)) {
    const inRepository = new RegExp(`^${REPOSITORY}/(?:blob|tree)/main/([^#]+)(?:#(.+))?$`).exec(link);
    if (!inRepository) return undefined; // the issue tracker and other sites are not checked offline
    target = inRepository[1]!;
    anchor = inRepository[2];
  } else {
    const [path, hash] = link.split('#');
    target = relative(ROOT, normalize(join(ROOT, dirname(file), path!)));
    anchor = hash;
    // The README and docs/ are read on the registry and in node_modules: a relative link must
    // point into the package. Files the package does not ship are linked on the repository.
    if (shipped.has(file) && !shipped.has(target)) return `${target} is not in the package; link ${REPOSITORY}/blob/main/${target}`;
  }
  if (!existsSync(join(ROOT, target))) return `${target} does not exist`;
  if (anchor !== undefined && statSync(join(ROOT, target)).isFile() && target.endsWith('.md') && !anchors(target).has(anchor))
    return `${target} has no heading #${anchor}`;
  return undefined;
}

describe('documentation links', () => {
  it('the package ships the README, the docs, LICENSE and the scenario schema', () => {
    for (const file of ['README.md', 'LICENSE', 'docs/reference.md', 'docs/errors.md', 'scenarios/scenario.schema.json'])
      expect(shipped.has(file), file).toBe(true);
    expect(shipped.has('CONTRIBUTING.md')).toBe(false);
  });

  it.each(pages)('every link in %s works, from the registry page and from node_modules', (file) => {
    const found = links(file);
    expect(found.map((link) => [link, broken(file, link)]).filter(([, why]) => why !== undefined)).toEqual([]);
  });

  it('a broken link would be caught', () => {
    expect(links('README.md').length).toBeGreaterThan(10);
    expect(broken('README.md', 'docs/nope.md')).toMatch(/not in the package/);
    expect(broken('README.md', 'docs/errors.md#nope')).toBe('docs/errors.md has no heading #nope');
    expect(broken('README.md', 'src/index.ts')).toMatch(/not in the package/);
    expect(broken('README.md', `${REPOSITORY}/blob/main/src/nope.ts`)).toBe('src/nope.ts does not exist');
    expect(broken('README.md', '#ci-library-flags-and-recipes')).toBeUndefined();
  });
});
