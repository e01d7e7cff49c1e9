import { afterEach, describe, expect, it } from 'vitest';
import { run, waitFor, type CliRun } from './cli.js';

const runs: CliRun[] = [];
afterEach(() => {
  for (const r of runs.splice(0)) if (r.child.exitCode === null) r.child.kill('SIGKILL');
});

/** The built CLI with these variables set besides the test's own environment. */
function cli(env: Record<string, string>, ...args: string[]): CliRun {
  const r = run(process.execPath, ['dist/cli.js', ...args], { env });
  runs.push(r);
  return r;
}

interface Ready {
  port: number;
  scenario: string;
  keys: { key: string; plan: string }[];
}

describe('the command configured by PETSTORE_MOCK_ variables', () => {
  // `--port 0` is a plain command line (the fast parser); `--no-watch` makes it one only yargs
  // reads. Port 1 from the variable could not be taken: the start proves the flag won.
  it.each([[['--port', '0']], [['--port=0', '--no-watch']]])('starts as the variables say, a flag winning over its variable (%j)', async (args) => {
    const env = {
      PETSTORE_MOCK_PORT: '1',
      PETSTORE_MOCK_READY_JSON: 'true',
      PETSTORE_MOCK_SCENARIO: 'ban',
      PETSTORE_MOCK_KEY: 'ci-key:enterprise:100000:1000000, other-key:free',
      PETSTORE_MOCK_ALLOW_HOST: 'petstore',
      PETSTORE_MOCK_WATCH: 'true',
    };
    const r = cli(env, ...args);
    const ready = JSON.parse((await waitFor(r, /^\{.*\}$/m))[0]) as Ready;
    expect(ready.scenario).toBe('ban');
    expect(ready.keys.map((k) => `${k.key}:${k.plan}`)).toEqual(expect.arrayContaining(['ci-key:enterprise', 'other-key:free']));
    const admin = await fetch(`http://127.0.0.1:${ready.port}/__admin/scenario`, { headers: { host: `petstore:${ready.port}` } });
    expect(admin.status).toBe(200);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });

  it.each([
    [{ PETSTORE_MOCK_PORT: 'http' }, 'petstore-mock: PETSTORE_MOCK_PORT must be a whole number from 0 to 65535, not "http".'],
    [{ PETSTORE_MOCK_LOG_FORMAT: 'xml', PETSTORE_MOCK_PORT: '0' }, 'petstore-mock: PETSTORE_MOCK_LOG_FORMAT takes pretty or json, not "xml".'],
    [{ PETSTORE_MOCK_ALLOW_HOST: 'a/b', PETSTORE_MOCK_PORT: '0' }, 'petstore-mock: PETSTORE_MOCK_ALLOW_HOST "a/b" is not a host name'],
    [
      { PETSTORE_MOCK_KEY: 'ci-key:gold', PETSTORE_MOCK_PORT: '0' },
      'petstore-mock: PETSTORE_MOCK_KEY "ci-key:gold" names an unknown plan "gold"; write PETSTORE_MOCK_KEY=KEY:PLAN',
    ],
    [
      { PETSTORE_MOCK_ADMIN_TOKEN: ' ', PETSTORE_MOCK_PORT: '0' },
      'petstore-mock: PETSTORE_MOCK_ADMIN_TOKEN is blank; give the admin token, or leave it out to run the admin API unprotected.',
    ],
    [
      { PETSTORE_MOCK_STATE: 'tcp://10.96.0.13:6379', PETSTORE_MOCK_PORT: '0' },
      'petstore-mock: PETSTORE_MOCK_STATE "tcp://10.96.0.13:6379" is not a Redis URL',
    ],
  ])('refuses %j in one line naming the variable, and exits 1', async (env, line) => {
    const r = cli(env);
    expect(await r.exited).toBe(1);
    expect(r.stderr().split('\n')).toHaveLength(2);
    expect(r.stderr()).toContain(line);
    expect(r.stdout()).toBe('');
  });

  it('a flag given as a variable and on the command line names the flag when the flag is wrong', async () => {
    const r = cli({ PETSTORE_MOCK_PORT: '0' }, '--port', '99999');
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toBe('petstore-mock: --port must be a whole number from 0 to 65535, not "99999".\n');
  });

  // Every variable a Service named petstore-mock and one named petstore-mock-redis inject into the
  // pods of their namespace (enableServiceLinks is on by default), and the pod's own host. The
  // port stays 4010, so the mock listens on a loopback address of its own to take it.
  it('starts under the variables of Kubernetes service links, ignoring them without a word', async () => {
    const host = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
    const env = {
      PETSTORE_MOCK_SERVICE_HOST: '10.96.0.12',
      PETSTORE_MOCK_SERVICE_PORT: '4010',
      PETSTORE_MOCK_SERVICE_PORT_HTTP: '4010',
      PETSTORE_MOCK_PORT: 'tcp://10.96.0.12:4010',
      PETSTORE_MOCK_PORT_4010_TCP: 'tcp://10.96.0.12:4010',
      PETSTORE_MOCK_PORT_4010_TCP_PROTO: 'tcp',
      PETSTORE_MOCK_PORT_4010_TCP_PORT: '4010',
      PETSTORE_MOCK_PORT_4010_TCP_ADDR: '10.96.0.12',
      PETSTORE_MOCK_REDIS_SERVICE_HOST: '10.96.0.13',
      PETSTORE_MOCK_REDIS_SERVICE_PORT: '6379',
      PETSTORE_MOCK_REDIS_PORT: 'tcp://10.96.0.13:6379',
      PETSTORE_MOCK_REDIS_PORT_6379_TCP: 'tcp://10.96.0.13:6379',
      PETSTORE_MOCK_REDIS_PORT_6379_TCP_PROTO: 'tcp',
      PETSTORE_MOCK_REDIS_PORT_6379_TCP_PORT: '6379',
      PETSTORE_MOCK_REDIS_PORT_6379_TCP_ADDR: '10.96.0.13',
      PETSTORE_MOCK_HOST: host,
    };
    const r = cli(env);
    await waitFor(r, new RegExp(`http://${host.replace(/\./g, '\\.')}:4010/v1`));
    expect((await fetch(`http://${host}:4010/__admin/health`)).status).toBe(200);
    expect(r.stderr()).toBe('');
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });

  it('warns of an unknown PETSTORE_MOCK_ variable, naming the nearest setting, and starts', async () => {
    const r = cli({ PETSTORE_MOCK_URL: 'http://127.0.0.1:4010/v1', PETSTORE_MOCK_READY_JSON: '1' }, '--port', '0');
    await waitFor(r, /^\{.*\}$/m);
    expect(r.stderr()).toBe(
      "petstore-mock: PETSTORE_MOCK_URL is not a petstore-mock setting and is ignored (the nearest setting is PETSTORE_MOCK_PORT); each flag's variable is PETSTORE_MOCK_ and the flag in capitals, listed in docs/cli.md.\n",
    );
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });
});
