// The programs of the real-client suite: where each runs, and how to start it. Missing tools skip
// their cases with the reason, except in CI, where `npm test` installs them first (pretest).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROGRAMS = fileURLToPath(new URL('./programs/', import.meta.url));
/** Debian's Python, which has python3-requests, -urllib3, -tenacity and -httpx. */
export const PYTHON = '/usr/bin/python3';

function works(file: string, args: string[]): boolean {
  try {
    execFileSync(file, args, { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

/** Which tools are here, checked once. */
export const available = {
  python: works(PYTHON, ['-c', 'import requests, urllib3, tenacity, httpx']),
  go: works('go', ['version']),
  java: works('java', ['-version']),
  curl: works('curl', ['--version']),
};

/** Runs a program and gives what it printed, trimmed; fails with its stderr. */
export function run(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 30_000, env }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      else resolve(stdout.trim());
    });
  });
}

/**
 * Builds the Go client offline, from the standard library only, with a build cache of its own;
 * returns the binary and a function that removes what the build left.
 */
export async function buildGo(): Promise<{ binary: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-mock-go-'));
  copyFileSync(join(PROGRAMS, 'loop.go'), join(dir, 'loop.go'));
  writeFileSync(join(dir, 'go.mod'), 'module loop\n\ngo 1.19\n');
  const env = { ...process.env, GOCACHE: join(dir, 'cache'), GOPATH: join(dir, 'gopath'), GOFLAGS: '-mod=mod', GOPROXY: 'off', CGO_ENABLED: '0' };
  await new Promise<void>((resolve, reject) => {
    execFile('go', ['build', '-o', 'loop', '.'], { cwd: dir, env, timeout: 120_000 }, (error, _out, stderr) =>
      error ? reject(new Error(`go build failed: ${stderr}`)) : resolve(),
    );
  });
  // The module cache is written read-only; make it removable.
  return { binary: join(dir, 'loop'), remove: () => (execFileSync('chmod', ['-R', 'u+w', dir]), rmSync(dir, { recursive: true, force: true })) };
}

/** Compiles the Java client once; returns the class directory and a function that removes it. */
export async function buildJava(): Promise<{ classes: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-mock-java-'));
  const source = join(PROGRAMS, 'Loop.java');
  await run('java', [source, '--compile-to', dir, source]);
  return { classes: dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
