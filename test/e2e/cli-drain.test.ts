import { mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliLauncher, waitFor, waitForPortClosed, type CliRun } from './cli.js';

// Stopping with answers in flight, with the real CLI: a scenario latency holds each answer back
// (real time, kept short but past the 2 s after which the server used to cut them), and the
// signal comes while they wait.

const cli = cliLauncher('--port', '0', '--ready-json', '--quiet');

function latencyScenario(latency: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-drain-')), 'held.yaml');
  writeFileSync(file, `description: every answer held back\nlatency: ${latency}\n`);
  return file;
}

async function ready(r: CliRun): Promise<number> {
  const [line] = await waitFor(r, /^\{.*\}\n/);
  return (JSON.parse(line) as { port: number }).port;
}

/** A GET on a connection of its own; resolves with the status or the error's code. */
function request(port: number, path: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path, agent: false, headers: { authorization: 'Bearer demo-pro' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** Waits until the mock has received `n` API requests (the journal records a request before its latency). */
async function received(port: number, n: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/__admin/requests/count`);
    if (((await res.json()) as { count: number }).count >= n) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the mock did not receive ${n} requests`);
}

describe('stopping with answers in flight', () => {
  // SIGTERM's lame duck (cli-lame-duck.test.ts) is left out here, so that both stop accepting at once.
  it.each(['SIGTERM', 'SIGINT'] as const)('%s: stops accepting, finishes all 5 delayed answers, then exits 0', async (signal) => {
    const r = cli('--scenario', latencyScenario('2500ms'), '--lame-duck-time', '0');
    const port = await ready(r);
    const answers = [1, 2, 3, 4, 5].map((id) => request(port, `/v1/pets/${id}`));
    await received(port, 5);
    r.child.kill(signal);
    // Accepting stopped at once, while the answers still wait out their latency.
    await waitForPortClosed(port, 1000);
    expect(await Promise.all(answers)).toEqual([200, 200, 200, 200, 200]);
    expect(await r.exited).toBe(0);
    expect(r.stderr()).toBe('');
  });

  it('--drain-time 1 cuts what is still held after 1 s and says which requests', async () => {
    const r = cli('--scenario', latencyScenario('4s'), '--drain-time', '1', '--lame-duck-time', '0');
    const port = await ready(r);
    const answers = [request(port, '/v1/pets/1'), request(port, '/v1/pets/2?x=1')];
    await received(port, 2);
    r.child.kill('SIGTERM');
    expect(await Promise.all(answers)).toEqual(['ECONNRESET', 'ECONNRESET']);
    expect(await r.exited).toBe(0);
    expect(r.stderr()).toMatch(
      /^petstore-mock: the drain time of 1 s ran out; closed 2 connections with answers still owed: GET \/v1\/pets\/[12](\?x=1)?, GET \/v1\/pets\/[12](\?x=1)?\.\n$/,
    );
    expect(r.stderr()).toContain('/v1/pets/2?x=1');
  });

  it('--drain-time takes whole seconds from 0 to 3600', async () => {
    const r = cli('--drain-time', '1.5');
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toBe('petstore-mock: --drain-time must be a whole number from 0 to 3600, not "1.5".\n');
  });
});
