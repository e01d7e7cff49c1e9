import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { run, waitFor, type CliRun } from '../e2e/cli.js';

const exec = promisify(execFile);
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
/** The README's ban walk-through: its shell block, first line the command that starts the mock. */
const block = /A walk-through of a ban[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

let server: CliRun | undefined;
afterEach(() => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
});

describe("the README's ban walk-through", () => {
  it('prints what its comments say, run as printed against `petstore-mock --scenario ban` on whatever real time it is', async () => {
    const [start, ...rest] = block.split('\n');
    expect(start).toBe('npx petstore-mock --scenario ban');
    server = run(process.execPath, ['dist/cli.js', '--scenario', 'ban', '--port', '0']);
    const [, port] = await waitFor(server, /http:\/\/127\.0\.0\.1:(\d+)\/v1/);
    const script = rest.join('\n').replaceAll('127.0.0.1:4010', `127.0.0.1:${port}`);
    const { stdout } = await exec('bash', ['-c', script], { timeout: 30_000 });
    const lines = stdout.split('\n');

    const said = (pattern: RegExp): string => pattern.exec(block)?.[1] ?? 'missing from the README';
    expect(lines[0]).toBe('{"now":"2030-01-07T09:00:00.000Z","frozen":true}');
    expect(lines[1]?.trim()).toBe(said(/^# ((?:\d{3} ){19}\d{3}) /m));
    expect(lines[2]).toMatch(new RegExp(`^${said(/^# (HTTP\/1\.1 429 [A-Za-z ]+),/m)}\\r$`));
    expect(lines).toContain(`Retry-After: ${said(/Retry-After: (\d+) /)}\r`);
    expect(stdout).toContain(said(/^# HTTP.*, ("code":"\w+")$/m));
    expect(lines).toContain('{"now":"2030-01-07T09:03:00.000Z","frozen":true}');
    expect(block).toMatch(/ +# 200 again\n/);
    expect(lines).toContain('200');
    expect(stdout).toMatch(/"reset":true/);
  });
});
