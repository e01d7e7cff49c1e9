import { build, type Plugin } from 'esbuild';
import { builtinModules } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve('src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const NODE_ONLY = new Set([...builtinModules, 'express']);

/** Bundles entry points for a neutral platform and returns every package or built-in they import. */
async function importsOf(entryPoints: string[]): Promise<string[]> {
  const seen = new Set<string>();
  const record: Plugin = {
    name: 'record-imports',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        seen.add(args.path);
        return { path: args.path, external: true };
      });
    },
  };
  await build({ entryPoints, bundle: true, write: false, platform: 'neutral', format: 'esm', logLevel: 'silent', plugins: [record], outdir: 'unused' });
  return [...seen];
}

function nodeOnly(imports: string[]): string[] {
  return imports.filter((name) => name.startsWith('node:') || NODE_ONLY.has(name) || NODE_ONLY.has(name.split('/')[0] ?? ''));
}

describe('the layout keeps its promises', () => {
  it('src/core imports no Node built-in, no node:http, no Express and no file system', async () => {
    const core = sourceFiles(join(SRC, 'core'));
    expect(core.length).toBeGreaterThan(20);
    const imports = await importsOf(core);
    // The core imports no package at run time at all: the schemas are read as data (no Ajv), and
    // the seeded animals need no Faker (the next test shows the check sees real imports).
    expect(imports).toEqual([]);
    expect(nodeOnly(imports)).toEqual([]);
  });

  it('the fetch handler pulls in neither the node:http adapter nor any Node built-in', async () => {
    expect(nodeOnly(await importsOf([join(SRC, 'http', 'fetch-handler.ts')]))).toEqual([]);
  });

  it('the browser entry pulls in no Node built-in and nothing that reads the disk', async () => {
    const imports = await importsOf([join(SRC, 'browser', 'index.ts')]);
    expect(nodeOnly(imports)).toEqual([]);
    // No Ajv, nor any module made at build time: the schemas are read as data, so a strict CSP is fine.
    expect(imports).toEqual([]);
  });

  it('the bundle check would catch a Node import', async () => {
    expect(nodeOnly(await importsOf([join(SRC, 'http', 'node-adapter.ts')]))).toContain('node:http');
  });

  it('has no import cycles in src', () => {
    const graph = new Map<string, string[]>();
    const specifier = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, 'utf8');
      const targets = [...text.matchAll(specifier)].map((m) => resolve(dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts')));
      graph.set(file, targets);
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(graph.size).toBeGreaterThan(30);
    expect(cycles).toEqual([]);
  });
});

describe('one engine, two homes of state', () => {
  it('src/state-redis imports nothing from the pipeline: it only implements the state port', () => {
    const files = sourceFiles(join(SRC, 'state-redis'));
    expect(files.length).toBeGreaterThan(5);
    const offenders = files.filter((file) => /from\s+['"][./]*core\/pipeline\//.test(readFileSync(file, 'utf8')));
    expect(offenders.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('the pipeline is one class, and both homes answer through it', () => {
    const pipelineUsers = sourceFiles(SRC).filter((file) => /\bnew Pipeline\(|extends Pipeline</.test(readFileSync(file, 'utf8')));
    expect(pipelineUsers.map((f) => relative(SRC, f)).sort()).toEqual(['core/pipeline/engine.ts', 'shared-mock.ts']);
    // Nothing but the pipeline builds answers: the answer's builders are called from it alone.
    const builders = sourceFiles(SRC).filter((file) => /\banswerHeaders\(|\bjournalEntryOf\(/.test(readFileSync(file, 'utf8')));
    expect(builders.map((f) => relative(SRC, f)).sort()).toEqual(['core/pipeline/answer.ts', 'core/pipeline/pipeline.ts']);
  });

  it('no file in src is over 300 lines', () => {
    const long = sourceFiles(SRC)
      .map((file) => ({ file: relative(SRC, file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter((f) => f.lines > 300);
    expect(long).toEqual([]);
  });
});
