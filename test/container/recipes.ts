// The checks of the container recipes (docs/container.md), run by container.test.ts once the
// image is built: each recipe file is run as printed, where this machine can run it.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
const composeProjects: string[] = [];
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
  // The runner waits for the health check; podman runs it on demand here (no systemd timers).
  // Podman 4.3 keeps the image's interval when --health-interval comes without --health-cmd
  // (Docker applies it), so only the check itself is asserted.
  expect((await sh('podman', ['healthcheck', 'run', name])).code).toBe(0);
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
  composeProjects.push(project);
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
  expect(r.stdout + r.stderr).toMatch(/Tests\s+1 passed \(1\)/);
  expect(r.code).toBe(0);
}

/** Stops what the recipes started: containers, compose projects and the API service. */
export async function stopRecipes(): Promise<void> {
  for (const project of composeProjects) {
    await sh('podman-compose', ['-p', project, 'down'], { cwd: join(WORK, 'compose'), timeoutMs: 60_000 });
    // podman-compose 1.0.3 leaves the project's network behind.
    await sh('podman', ['network', 'rm', '-f', `${project}_default`]);
  }
  if (containers.length > 0) await sh('podman', ['rm', '-f', '-i', ...containers]);
  service?.kill('SIGTERM');
}
