// Podman for the container tests: a containers.conf of the tests' own (never /etc), a Debian
// trixie base image with Node 20 made by debootstrap and kept between runs, and the image built
// from a copy of the working tree by `npm run image`'s script.
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../recipes/project.js';
import { gitRevision } from '../../scripts/image-labels.mjs';

/** The local base image: Debian trixie's nodejs (20.19), as no registry is reachable here. */
export const BASE_IMAGE = 'localhost/petstore-mock-base:trixie-node20';
/** The image `npm run image` builds. */
export const IMAGE = 'localhost/petstore-mock:local';
/** The revision label the build is given: the working tree's commit when the tests start. */
export const IMAGE_REVISION = gitRevision(ROOT);

const work = mkdtempSync(join(tmpdir(), 'petstore-podman-'));
// Debian's podman runs as root here only with runc and no default ulimits (crun cannot set
// RLIMIT_NOFILE in this sandbox); the file is named by CONTAINERS_CONF, /etc stays untouched.
writeFileSync(join(work, 'containers.conf'), '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n');

/** The environment every podman command of the tests runs with. */
export const PODMAN_ENV: NodeJS.ProcessEnv = { ...process.env, CONTAINERS_CONF: join(work, 'containers.conf') };

/** Whether podman can run containers here: installed and run as root (the tests do not go rootless). */
export function podmanReady(): boolean {
  return process.getuid?.() === 0 && spawnSync('podman', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Whether a command is on PATH. */
export function installed(command: string): boolean {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command with the tests' podman environment; resolves with its output whatever its exit code. */
export function sh(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: { ...PODMAN_ENV, ...options.env }, timeout: options.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Runs podman and fails with its output unless it exits 0. */
export async function podman(...args: string[]): Promise<string> {
  const r = await sh('podman', args);
  if (r.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${r.code}:\n${r.stdout}${r.stderr}`);
  return r.stdout.trim();
}

/** Polls `check` every 100 ms until it returns a value, or fails after `timeoutMs` with `what`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Makes the base image unless it exists (base-image.sh: debootstrap, ~30 s to a few minutes with
 * the mirror's speed), or waits for the build CI started beside `npm ci`.
 */
export async function ensureBaseImage(): Promise<void> {
  const r = await sh('bash', [join(ROOT, 'test/container/base-image.sh')], { timeoutMs: 900_000 });
  if (r.code !== 0) throw new Error(`test/container/base-image.sh failed (${r.code}):\n${r.stdout}${r.stderr}`);
}

/**
 * Builds IMAGE with scripts/image.mjs from a copy of the working tree, so that a build of dist/
 * cannot pull the files from under the other tests running meanwhile.
 */
export async function buildImage(): Promise<void> {
  const tree = join(work, 'tree');
  mkdirSync(tree);
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0');
  for (const file of files.filter((f) => f !== '' && existsSync(join(ROOT, f)))) {
    mkdirSync(dirname(join(tree, file)), { recursive: true });
    cpSync(join(ROOT, file), join(tree, file));
  }
  // dist/ too, with the digest of what it was built from: the image's build then builds again
  // only when the sources changed since (a build is 15 s of CPU the other tests wait for).
  if (existsSync(join(ROOT, 'dist'))) cpSync(join(ROOT, 'dist'), join(tree, 'dist'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
  const r = await sh(process.execPath, ['scripts/image.mjs'], {
    cwd: tree,
    // The copy is no git checkout: the revision label comes from the working tree's.
    env: { CONTAINER_ENGINE: 'podman', NODE_IMAGE: BASE_IMAGE, IMAGE, IMAGE_REVISION },
    timeoutMs: 600_000,
  });
  if (r.code !== 0) throw new Error(`npm run image failed (${r.code}):\n${r.stdout}${r.stderr.slice(-4000)}`);
}

/** Removes what the tests made: the containers named, and the working folder. */
export async function cleanUp(containers: readonly string[]): Promise<void> {
  if (containers.length > 0) await sh('podman', ['rm', '-f', '-i', ...containers]);
  rmSync(work, { recursive: true, force: true });
}

/** The folder of this run's files. */
export const WORK = work;
