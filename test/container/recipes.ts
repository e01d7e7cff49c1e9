// The checks of the container recipes (docs/container.md), run by container.test.ts once the
// image is built: each recipe file is run as printed, where this machine can run it.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { parse } from 'yaml';
import { envName } from '../../src/cli/env-options.js';
import { OPTIONS } from '../../src/cli/options.js';
import { ROOT } from '../recipes/project.js';
import { freePort } from '../support/ports.js';
import { IMAGE, PODMAN_ENV, WORK, installed, podman, sh, until } from './podman.js';

const RECIPES = join(ROOT, 'test/recipes/container');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const containers: string[] = [];
const composeProjects: { project: string; dir: string }[] = [];
let service: ChildProcess | undefined;

async function get(url: string, key = 'demo-free'): Promise<Response> {
  return fetch(url, { headers: { authorization: `Bearer ${key}` } });
}

interface ActionsService {
  image: string;
  env: Record<string, string>;
  ports: string[];
  options: string;
}

/**
 * GitHub Actions cannot run here. The YAML is parsed and its service started as the runner
 * starts one (`docker create` with the service's env, ports and options), with the local image in
 * place of the registry's copy of it, and on a free port in place of 4010.
 */
export async function checkActionsService(): Promise<void> {
  const workflow = parse(readFileSync(join(RECIPES, 'github-actions-service.yml'), 'utf8')) as {
    jobs: { test: { services: { petstore: ActionsService }; steps: { env?: Record<string, string> }[] } };
  };
  const petstore = workflow.jobs.test.services.petstore;
  expect(petstore.image).toMatch(new RegExp(`/petstore-mock:${version.replace(/\./g, '\\.')}$`));
  expect(petstore.ports).toEqual(['4010:4010']);
  const known = new Set(OPTIONS.map(envName));
  for (const name of Object.keys(petstore.env)) expect(known).toContain(name);
  const testStep = workflow.jobs.test.steps.find((step) => step.env?.PETSTORE_URL !== undefined);
  expect(testStep?.env).toEqual({ PETSTORE_URL: 'http://localhost:4010/v1', PETSTORE_KEY: 'ci-key' });

  const port = await freePort();
  const name = `petstore-actions-test-${process.pid}`;
  containers.push(name);
  const env = Object.entries(petstore.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  await podman('run', '-d', '--name', name, '-p', `127.0.0.1:${port}:4010`, ...env, ...petstore.options.split(' '), IMAGE);
  const url = `http://localhost:${port}/v1`;
  await until('the service to answer', async () => ((await get(`${url}/pets`, 'ci-key')).ok ? true : undefined));
  // The runner waits for the health check, trying it again as --health-retries allows; podman
  // runs it on demand here (no systemd timers). Podman 4.3 keeps the image's interval when
  // --health-interval comes without --health-cmd (Docker applies it), so only the check itself is
  // asserted. Podman exits 125 when the check outlasts its timeout (it did, at 3 s, on a loaded
  // machine); the words of every try are kept.
  const checks: string[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const check = await sh('podman', ['healthcheck', 'run', name]);
    checks.push(`code ${check.code}: ${check.stdout.trim()} ${check.stderr.trim()}`);
    if (check.code === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  expect(checks.at(-1), checks.join('\n')).toMatch(/^code 0:/);
  expect(await podman('inspect', '--format', '{{.State.Health.Status}}', name)).toBe('healthy');
  expect((await get(`${url}/pets`, 'ci-key')).headers.get('x-ratelimit-limit')).toBe('100000');
  const log = (await podman('logs', name)).split('\n').filter((line) => line.startsWith('{'));
  expect(log.map((line) => (JSON.parse(line) as { path?: string }).path)).toContain('/v1/pets');
}

/** `podman-compose up -d` of the compose file as printed, then the app's output and exit. */
export async function checkCompose(): Promise<void> {
  expect(installed('podman-compose')).toBe(true);
  const dir = join(WORK, 'compose');
  mkdirSync(dir);
  copyFileSync(join(RECIPES, 'docker-compose.yml'), join(dir, 'docker-compose.yml'));
  const project = `petstorecompose${process.pid}`;
  composeProjects.push({ project, dir });
  const port = await freePort();
  const up = await sh('podman-compose', ['-p', project, 'up', '-d'], { cwd: dir, env: { PETSTORE_PORT: String(port) }, timeoutMs: 120_000 });
  expect(up.code, up.stdout + up.stderr).toBe(0);
  expect(await podman('wait', `${project}_app_1`)).toBe('0');
  const app = await podman('logs', `${project}_app_1`);
  expect(app).toMatch(/^app: 3 animals, the first \S+/m);
  expect(app).toContain('app: scenario ban (200)');
  const scenario = (await (await fetch(`http://127.0.0.1:${port}/__admin/scenario`)).json()) as { name: string };
  expect(scenario.name).toBe('ban');
}

/**
 * A real Redis server in an image of its own, made from this machine's redis-server and the
 * libraries it links: Docker Hub's redis image is out of reach here.
 */
async function redisImage(): Promise<string> {
  const name = 'localhost/petstore-redis:test';
  if ((await sh('podman', ['image', 'exists', name])).code === 0) return name;
  const dir = join(WORK, 'redis-image');
  const server = (await sh('sh', ['-c', 'command -v redis-server'])).stdout.trim();
  const linked = (await sh('ldd', [server])).stdout.match(/\/\S+/g) ?? [];
  for (const file of [server, ...linked]) {
    mkdirSync(join(dir, 'root', dirname(file)), { recursive: true });
    cpSync(file, join(dir, 'root', file), { dereference: true });
  }
  writeFileSync(
    join(dir, 'Containerfile'),
    `FROM scratch\nCOPY root/ /\nENTRYPOINT ["${server}", "--protected-mode", "no", "--save", "", "--appendonly", "no"]\n`,
  );
  await podman('build', '-t', name, '-f', join(dir, 'Containerfile'), dir);
  return name;
}

/** The compose file with Redis and two replicas, as printed: an animal created on one is read on the other. */
export async function checkComposeRedis(): Promise<void> {
  const dir = join(WORK, 'compose-redis');
  mkdirSync(dir);
  copyFileSync(join(RECIPES, 'compose-redis.yml'), join(dir, 'docker-compose.yml'));
  const project = `petstoreredis${process.pid}`;
  composeProjects.push({ project, dir });
  const [a, b] = [await freePort(), await freePort()];
  const env = { REDIS_IMAGE: await redisImage(), PETSTORE_A_PORT: String(a), PETSTORE_B_PORT: String(b) };
  const up = await sh('podman-compose', ['-p', project, 'up', '-d'], { cwd: dir, env, timeoutMs: 120_000 });
  expect(up.code, up.stdout + up.stderr).toBe(0);
  for (const port of [a, b])
    await until(`replica on ${port} to be ready`, async () =>
      (await fetch(`http://127.0.0.1:${port}/__admin/health`).catch(() => undefined))?.status === 200 ? true : undefined,
    );
  const created = await fetch(`http://127.0.0.1:${a}/v1/pets`, {
    method: 'POST',
    headers: { authorization: 'Bearer ci-key', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Shared', categoryId: 1 }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const read = await get(`http://127.0.0.1:${b}/v1/pets/${id}`, 'ci-key');
  expect(read.status).toBe(200);
  expect(((await read.json()) as { name: string }).name).toBe('Shared');
  const engines = await Promise.all(
    [a, b].map(async (port) => ((await (await fetch(`http://127.0.0.1:${port}/__admin/health`)).json()) as { state: { engine: string } }).state.engine),
  );
  expect(engines).toEqual(['redis', 'redis']);
}

/** The Testcontainers spec as printed, run by vitest against `podman system service`'s socket. */
export async function checkTestcontainers(): Promise<void> {
  const socket = join(WORK, 'podman.sock');
  service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { env: PODMAN_ENV, stdio: 'ignore' });
  await until('the podman API socket', async () => (existsSync(socket) ? true : undefined));
  const r = await sh(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--root', 'test/recipes/container/testcontainers'], {
    cwd: ROOT,
    // Ryuk, Testcontainers' reaper, is an image from Docker Hub, which is not reachable here.
    env: { DOCKER_HOST: `unix://${socket}`, TESTCONTAINERS_RYUK_DISABLED: 'true', NO_COLOR: '1' },
    timeoutMs: 170_000,
  });
  // pets.spec.ts with GenericContainer, helper.spec.ts with petstore-mock/testcontainers.
  expect(r.stdout + r.stderr).toMatch(/Test Files\s+2 passed \(2\)/);
  expect(r.stdout + r.stderr).toMatch(/Tests\s+3 passed \(3\)/);
  expect(r.code).toBe(0);
}

/** Stops what the recipes started: containers, compose projects and the API service. */
export async function stopRecipes(): Promise<void> {
  for (const { project, dir } of composeProjects) {
    await sh('podman-compose', ['-p', project, 'down'], { cwd: dir, timeoutMs: 60_000 });
    // podman-compose 1.0.3 leaves the project's network behind.
    await sh('podman', ['network', 'rm', '-f', `${project}_default`]);
  }
  if (containers.length > 0) await sh('podman', ['rm', '-f', '-i', ...containers]);
  service?.kill('SIGTERM');
}
