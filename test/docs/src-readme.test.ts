import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// src/README.md maps the source file by file, and a map that misses files or names ones that went
// away misleads whoever reads it first. These tests hold it to what is on disk, by two rules:
//
// 1. Every `.ts` file under src/ is named by its file name in the layout (the README's first code
//    block), inside its folder's part. A part opens at a line that starts at the left margin and
//    runs to the next such line; a part opened by `name/` is src/name/'s, any other is for the
//    files directly in src/. A file deeper down is named in its top folder's part, which also
//    names each folder between (`pipeline/`). Within a part the wording is free.
// 2. Every `name.ts` the README mentions exists: a bare name as some file's name under src/, a
//    path from src/ or from the repository root. A file that does not exist yet may be named only
//    in a sentence of prose (outside code blocks) that says "would be": all of that sentence's
//    names are taken as hypothetical, so it should name no real file.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');
const readme = readFileSync(join(SRC, 'README.md'), 'utf8');

/**
 * Every `.ts` file under src/, from src/ with `/` between folders. The operation registries are
 * generated, not committed, but vitest's config writes them before any test runs, so they are here.
 */
const sources = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .map((path) => path.split('\\').join('/'))
  .filter((path) => path.endsWith('.ts'))
  .sort();

const topFolders = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const CODE_BLOCK = /^```.*\n([\s\S]*?)^```$/gm;

/** A `.ts` name as a word: `registry.ts` is not found inside `settings-registry.ts`. */
function named(text: string, name: string): boolean {
  return new RegExp(`(?<![\\w.-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text);
}

interface Part {
  /** The top folder of src/ the part describes; undefined for files directly in src/. */
  folder: string | undefined;
  text: string;
}

function partsOf(layout: string): Part[] {
  const parts: Part[] = [];
  for (const line of layout.split('\n')) {
    if (/^\S/.test(line)) parts.push({ folder: /^([\w-]+)\/(?:\s|$)/.exec(line)?.[1], text: '' });
    const part = parts.at(-1);
    if (part) part.text += `${line}\n`;
  }
  return parts;
}

/** Why `file` (from src/) is not where rule 1 wants it named, or undefined when it is. */
function misplaced(file: string, parts: readonly Part[]): string | undefined {
  const folders = file.split('/');
  const name = folders.pop()!;
  const top = folders.shift();
  const text = parts
    .filter((p) => p.folder === top)
    .map((p) => p.text)
    .join('');
  const where = top === undefined ? 'the lines of the files directly in src/' : `the part of ${top}/`;
  if (text === '') return `the layout has nothing for ${top === undefined ? 'the files directly in src/' : `${top}/`}`;
  if (!named(text, name)) return `${name} is not named in ${where}`;
  const missing = folders.find((folder) => !new RegExp(`(?<![\\w-])${folder}/`).test(text));
  return missing === undefined ? undefined : `${missing}/ is not named in ${where}`;
}

/** The `.ts` names `text` mentions, and apart those of its "would be" sentences (rule 2). */
function mentionsOf(text: string): { real: string[]; hypothetical: string[] } {
  const NAME = /(?<![\w./-])\w[\w./-]*\.ts(?![\w-])/g;
  const namesIn = (part: string): string[] => [...part.matchAll(NAME)].map((m) => m[0]);
  const real = [...text.matchAll(CODE_BLOCK)].flatMap((m) => namesIn(m[1]!));
  const hypothetical: string[] = [];
  // A file name's dot is followed by a letter, so a sentence ends at a dot before a space.
  for (const sentence of text.replace(CODE_BLOCK, '\n\n').split(/\.\s+|\n\s*\n/))
    (sentence.includes('would be') ? hypothetical : real).push(...namesIn(sentence));
  return { real: [...new Set(real)].sort(), hypothetical: [...new Set(hypothetical)].sort() };
}

/** Whether a mentioned name is a file: a path from src/ or the root, or a bare name of a file under src/. */
function exists(name: string): boolean {
  if (name.includes('/')) return existsSync(join(SRC, name)) || existsSync(join(ROOT, name));
  return sources.some((file) => basename(file) === name);
}

const layout = [...readme.matchAll(CODE_BLOCK)][0]?.[1] ?? '';
const parts = partsOf(layout);
const mentions = mentionsOf(readme);

describe('src/README.md', () => {
  it('maps the source: its first code block has parts, and src/ has files', () => {
    expect(parts.length).toBeGreaterThan(10);
    expect(sources.length).toBeGreaterThan(100);
  });

  it.each(topFolders)('has a part for src/%s/ in its layout', (folder) => {
    expect(parts.some((p) => p.folder === folder)).toBe(true);
  });

  it.each(sources)('names src/%s within the part of its folder', (file) => {
    expect(misplaced(file, parts)).toBeUndefined();
  });

  it.each(mentions.real)('mentions %s, which exists', (name) => {
    expect(exists(name)).toBe(true);
  });

  it('marks as hypothetical only names of files that do not exist', () => {
    expect(mentions.hypothetical.filter(exists)).toEqual([]);
  });

  it('would catch a file left out, drawn in the wrong folder, or gone', () => {
    const sample = partsOf('cli/  the command (start.ts)\n  └─ mock.ts  drawn as if in cli/\ncore/  the mock\n  state/  store.ts\nindex.ts  the surface\n');
    expect(misplaced('cli/start.ts', sample)).toBeUndefined();
    expect(misplaced('core/state/store.ts', sample)).toBeUndefined();
    expect(misplaced('mock.ts', sample)).toBe('mock.ts is not named in the lines of the files directly in src/');
    expect(misplaced('cli/stopping.ts', sample)).toBe('stopping.ts is not named in the part of cli/');
    expect(misplaced('core/pipeline/store.ts', sample)).toBe('pipeline/ is not named in the part of core/');
    expect(misplaced('verify/run.ts', sample)).toBe('the layout has nothing for verify/');
    expect(named('settings-registry.ts', 'registry.ts')).toBe(false);
    expect(mentionsOf('Real: `a.ts` and `core/b.ts`. A new one would be `gone.ts`.\n\n```\nx/  c.d.ts\n```\n')).toEqual({
      real: ['a.ts', 'c.d.ts', 'core/b.ts'],
      hypothetical: ['gone.ts'],
    });
    expect(exists('gone.ts')).toBe(false);
    expect(exists('core/pipeline/answer.ts')).toBe(true);
    expect(exists('test/docs/src-readme.test.ts')).toBe(true);
  });
});
