import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliLauncher } from './cli.js';

const cli = cliLauncher('--port', '0');

describe('a FIFO named on the command line', () => {
  it.each([
    ['--scenario', 'held.yaml', 'scenario file'],
    ['--fixtures', 'db.json', 'fixtures file'],
  ])('%s FIFO exits 1 at once with one line (it used to hang with no word)', async (flag, name, what) => {
    const path = join(mkdtempSync(join(tmpdir(), 'petstore-fifo-')), name);
    execFileSync('mkfifo', [path]);
    const r = cli(flag, path);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toBe(
      `petstore-mock: cannot read the ${what} ${path} (it is a FIFO (named pipe); petstore-mock reads only regular files); check the path given to ${flag}.\n`,
    );
  });
});
