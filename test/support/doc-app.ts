import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

// docs/browser.md as a Vite app: its snippets written as the files they name, next to what a Vite
// template has (index.html, tsconfig), with petstore-mock installed as a package would be.

const DOC = 'docs/browser.md';

/** A fenced block of docs/browser.md: its language, and the file its first comment line names. */
export interface Snippet {
  lang: string;
  /** The first line's `// path` (`src/mocks/browser.ts`), or the whole first comment for console lines. */
  first: string;
  code: string;
}

/** Every fenced block of docs/browser.md, in order. */
export function browserDocSnippets(): Snippet[] {
  const text = readFileSync(DOC, 'utf8');
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => {
    const code = m[2] as string;
    return { lang: m[1] as string, first: /^\/\/ (.+)\n/.exec(code)?.[1] ?? '', code };
  });
}

/** The TypeScript snippets, each with the file it names; a TypeScript snippet must name one. */
export function typescriptFiles(): { file: string; code: string }[] {
  return browserDocSnippets()
    .filter((s) => s.lang === 'ts')
    .map((s) => {
      if (!/^[\w./-]+\.ts$/.test(s.first))
        throw new Error(`${DOC}: a ts snippet must start with a "// path/to/file.ts" line; this one starts ${JSON.stringify(s.code.slice(0, 60))}`);
      return { file: s.first, code: s.code };
    });
}

// What `npm create vite` writes for TypeScript, without a framework.
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    module: 'ESNext',
    types: ['vite/client'],
    skipLibCheck: true,
    moduleResolution: 'bundler',
    verbatimModuleSyntax: true,
    moduleDetection: 'force',
    noEmit: true,
    strict: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    noFallthroughCasesInSwitch: true,
  },
  include: ['src', '*.ts'],
};

const INDEX_HTML =
  '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>app</title></head>\n<body><div id="app"></div><script type="module" src="/src/main.ts"></script></body>\n</html>\n';

/**
 * Writes the app into `dir`: the snippets, index.html, tsconfig.json, a package.json, the worker
 * script from the page's own `npx msw init` line (run through MSW's CLI), and node_modules with
 * petstore-mock (this checkout, as an installed copy resolves it: through its exports), msw and vite.
 */
export function writeDocApp(dir: string): void {
  for (const { file, code } of typescriptFiles()) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), code);
  }
  writeFileSync(join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(resolve('.'), join(dir, 'node_modules', 'petstore-mock'), 'dir');
  for (const pkg of ['msw', 'vite']) symlinkSync(resolve('node_modules', pkg), join(dir, 'node_modules', pkg), 'dir');
  const init = browserDocSnippets()
    .filter((s) => s.lang === 'sh')
    .flatMap((s) => s.code.split('\n'))
    .find((line) => line.startsWith('npx msw init '));
  if (!init) throw new Error(`${DOC}: the setup has no "npx msw init" line`);
  const args = (init.split('#')[0] ?? '').trim().split(/\s+/).slice(2);
  execFileSync(process.execPath, [resolve('node_modules/msw/cli/index.js'), ...args], { cwd: dir, stdio: 'ignore' });
}
