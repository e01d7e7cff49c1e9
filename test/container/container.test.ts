// The container image, built from this working tree on a local Debian base and run with podman:
// what a CI service or a compose file relies on; then the recipes of docs/container.md, each run
// as printed where this machine can. Measured figures go to docs/container.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { ROOT } from '../recipes/project.js';
import { freePort } from '../support/ports.js';
import { IMAGE, IMAGE_REVISION, buildImage, cleanUp, ensureBaseImage, podman, podmanReady, sh, until } from './podman.js';
import { checkActionsService, checkCompose, checkComposeRedis, checkTestcontainers, stopRecipes } from './recipes.js';

const RECIPES = [
  'test/recipes/container/github-actions-service.yml',
  'test/recipes/container/docker-compose.yml',
  'test/recipes/container/compose-redis.yml',
  'test/recipes/container/testcontainers/pets.spec.ts',
  'test/recipes/container/testcontainers/helper.spec.ts',
];
const doc = readFileSync(join(ROOT, 'docs/container.md'), 'utf8');

describe('the container recipes of docs/container.md', () => {
  it.each(RECIPES)('docs/container.md prints %s verbatim', (file) => {
    expect(doc).toContain(`\n${readFileSync(join(ROOT, file), 'utf8')}\`\`\`\n`);
  });
});

const inCi = process.env.CI === 'true';
const ready = podmanReady();
if (!ready && !inCi) console.warn('petstore-mock tests: skipping the container image tests: they need podman and root (npm test installs podman as root).');

const name = `petstore-image-test-${process.pid}`;
let port = 0;

/** A request from the host to the published port, with any Host header (fetch would not send one). */
function call(method: string, path: string, options: { host?: string; body?: unknown } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = { host: options.host ?? `127.0.0.1:${port}`, authorization: 'Bearer demo-pro' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject).end(body);
  });
}

describe.runIf(ready || inCi)('the container image', () => {
  beforeAll(async () => {
    await ensureBaseImage();
    await buildImage();
    port = await freePort();
    const started = Date.now();
    await podman('run', '-d', '--name', name, '-p', `127.0.0.1:${port}:4010`, '-e', 'PETSTORE_MOCK_ALLOW_HOST=petstore,mock.internal', IMAGE);
    await until('the mock to answer', async () => ((await call('GET', '/__admin/health')).status === 200 ? true : undefined));
    const size = Number(await podman('image', 'inspect', '--format', '{{.Size}}', IMAGE));
    console.info(`petstore-mock image: ${(size / 1e6).toFixed(0)} MB; run to ready: ${Date.now() - started} ms`);
  }, 900_000);

  afterAll(async () => {
    await stopRecipes();
    await cleanUp([name]);
  }, 120_000);

  it('runs the mock as PID 1 under a user that is not root', async () => {
    const top = await podman('top', name, 'user', 'pid', 'args');
    expect(top).toMatch(/^10001\s+1\s+node \/app\/bin\/petstore-mock\.js/m);
    expect(await podman('exec', name, 'id', '-u')).toBe('10001');
  });

  it('holds the shipped scenarios and fixtures and the production dependencies, no dev dependency', async () => {
    const files = (await podman('exec', name, 'ls', '/app', '/app/scenarios', '/app/fixtures', '/app/node_modules')).split('\n');
    expect(files).toEqual(expect.arrayContaining(['ban.yaml', 'slow.yaml', 'db.json', 'pets.json', 'express', 'yargs', 'dist', 'bin']));
    for (const dev of ['vitest', 'typescript', 'esbuild', 'testcontainers', 'eslint']) expect(files).not.toContain(dev);
    expect(await podman('image', 'inspect', '--format', '{{.Config.User}} {{json .Config.ExposedPorts}}', IMAGE)).toBe('10001:10001 {"4010/tcp":{}}');
  });

  it('carries the OCI labels: package.json and the revision it was built from', async () => {
    const labels = JSON.parse(await podman('image', 'inspect', '--format', '{{json .Labels}}', IMAGE)) as Record<string, string>;
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; description: string };
    expect(labels).toMatchObject({
      'org.opencontainers.image.title': 'petstore-mock',
      'org.opencontainers.image.description': pkg.description,
      'org.opencontainers.image.version': pkg.version,
      'org.opencontainers.image.revision': IMAGE_REVISION,
      'org.opencontainers.image.source': 'https://github.com/petstore-mock/petstore-mock',
      'org.opencontainers.image.licenses': 'MIT',
    });
    expect(IMAGE_REVISION).toMatch(/^[0-9a-f]{40}$/);
  });

  it('lists animals and creates one, from the host through the published port', async () => {
    const list = await call('GET', '/v1/pets?limit=3');
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body)).toHaveLength(3);
    const created = await call('POST', '/v1/pets', { body: { name: 'Podman', categoryId: 1, status: 'available' } });
    expect(created.status).toBe(201);
    const { id } = JSON.parse(created.body) as { id: number };
    expect(JSON.parse((await call('GET', `/v1/pets/${id}`)).body)).toMatchObject({ id, name: 'Podman' });
  });

  it('passes its health check, which needs no curl in the image', async () => {
    expect((await sh('podman', ['exec', name, 'sh', '-c', 'command -v curl wget'])).stdout).toBe('');
    const run = await sh('podman', ['healthcheck', 'run', name]);
    expect(run.code).toBe(0);
    expect(await podman('inspect', '--format', '{{.State.Health.Status}}', name)).toBe('healthy');
  });

  it('switches a scenario through the admin API by an allowed name, and refuses other sites', async () => {
    const switched = await call('PUT', '/__admin/scenario', { host: `mock.internal:${port}`, body: { name: 'slow' } });
    expect(switched.status).toBe(200);
    expect(JSON.parse((await call('GET', '/__admin/scenario', { host: `petstore:${port}` })).body)).toMatchObject({ name: 'slow' });
    const refused = await call('GET', '/__admin/scenario', { host: `attacker.example:${port}` });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('admin_host_forbidden');
  });

  // What a Service named petstore-mock and one named petstore-mock-redis put in every pod of the
  // namespace (enableServiceLinks is on by default): the image must start, pass its health check
  // and answer probes by the pod's address.
  it('starts under the variables of Kubernetes service links, passes its health check and answers probes by address', async () => {
    const linked = `${name}-links`;
    const linkedPort = await freePort();
    const links = [
      'PETSTORE_MOCK_SERVICE_HOST=10.96.0.12',
      'PETSTORE_MOCK_SERVICE_PORT=4010',
      'PETSTORE_MOCK_SERVICE_PORT_HTTP=4010',
      'PETSTORE_MOCK_PORT=tcp://10.96.0.12:4010',
      'PETSTORE_MOCK_PORT_4010_TCP=tcp://10.96.0.12:4010',
      'PETSTORE_MOCK_PORT_4010_TCP_PROTO=tcp',
      'PETSTORE_MOCK_PORT_4010_TCP_PORT=4010',
      'PETSTORE_MOCK_PORT_4010_TCP_ADDR=10.96.0.12',
      'PETSTORE_MOCK_REDIS_SERVICE_HOST=10.96.0.13',
      'PETSTORE_MOCK_REDIS_SERVICE_PORT=6379',
      'PETSTORE_MOCK_REDIS_PORT=tcp://10.96.0.13:6379',
      'PETSTORE_MOCK_REDIS_PORT_6379_TCP=tcp://10.96.0.13:6379',
      'PETSTORE_MOCK_REDIS_PORT_6379_TCP_PROTO=tcp',
      'PETSTORE_MOCK_REDIS_PORT_6379_TCP_PORT=6379',
      'PETSTORE_MOCK_REDIS_PORT_6379_TCP_ADDR=10.96.0.13',
    ];
    try {
      await podman('run', '-d', '--name', linked, '-p', `127.0.0.1:${linkedPort}:4010`, ...links.flatMap((v) => ['-e', v]), IMAGE);
      const probe = (): Promise<number> =>
        new Promise((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port: linkedPort, path: '/__admin/health', headers: { host: '10.244.1.7:4010' } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject).end();
        });
      expect(await until('the mock with service links to answer a probe by address', async () => ((await probe()) === 200 ? 200 : undefined))).toBe(200);
      expect((await sh('podman', ['healthcheck', 'run', linked])).code).toBe(0);
      const logs = await sh('podman', ['logs', linked]);
      expect(`${logs.stdout}${logs.stderr}`).not.toContain('not a petstore-mock setting');
    } finally {
      await sh('podman', ['rm', '-f', '-i', linked]);
    }
  });

  it('on SIGTERM finishes the answer in flight and exits 0 within the drain time', async () => {
    // The slow scenario (set above) delays every answer by 100 ms to 1 s, longer than podman
    // takes to start and signal: this answer is still in flight when SIGTERM arrives.
    const inFlight = call('GET', '/v1/pets?limit=2');
    const signalled = Date.now();
    await podman('kill', '--signal', 'TERM', name);
    expect((await inFlight).status).toBe(200);
    expect(await podman('wait', name)).toBe('0');
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(await podman('inspect', '--format', '{{.State.ExitCode}}', name)).toBe('0');
  });

  it('the GitHub Actions service, started as the runner would from the YAML: env, port and health options', checkActionsService, 120_000);

  it('the compose file: the app container calls the mock by its service name (podman-compose)', checkCompose, 180_000);

  it('the compose file with Redis and two replicas: an animal created on one is read on the other', checkComposeRedis, 240_000);

  it("the Testcontainers recipe and petstore-mock/testcontainers, against podman's Docker-compatible API socket", checkTestcontainers, 240_000);
});
