import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliLauncher, waitFor } from './cli.js';
import { at } from '../support/checked.js';

const cli = cliLauncher('--port', '0');
const dir = mkdtempSync(join(tmpdir(), 'petstore-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scenario = (description: string, extra = ''): string => `name: watched\ndescription: ${description}\nban:\n  after: 3\n${extra}`;

async function description(origin: string): Promise<string> {
  const res = await fetch(`${origin}/__admin/scenario`);
  return ((await res.json()) as { description: string }).description;
}

describe('--watch', () => {
  it('reloads an edited scenario file with one line, keeps the old version on a mistake, and takes the fix', async () => {
    const file = join(dir, 'watched.yaml');
    writeFileSync(file, scenario('first version'));
    const r = cli('--scenario', file, '--watch');
    const origin = at(await waitFor(r, /admin\s+(http:\/\/127\.0\.0\.1:\d+)\/__admin\//), 1);
    expect(r.stdout()).toContain('scenario  watched  (--watch: files reload on change)');
    expect(await description(origin)).toBe('first version');

    writeFileSync(file, scenario('second version'));
    await waitFor(r, /^petstore-mock: reloaded .*watched\.yaml; restarted session default\.$/m);
    expect(await description(origin)).toBe('second version');

    writeFileSync(file, scenario('third version', '  afer: 4\n'));
    const [line] = await waitFor(r, /^petstore-mock: .*\n/m, 15_000, 'stderr');
    expect(line).toBe(
      `petstore-mock: ${file}:5:3: unknown key "afer" in ban; the keys there are after, duration; fix the file and try again. The previous version keeps running.\n`,
    );
    expect(await description(origin)).toBe('second version');

    // The fix that brings back the running version restarts nothing, and says the session runs it.
    writeFileSync(file, scenario('second version'));
    await waitFor(r, /^petstore-mock: reloaded .*watched\.yaml; session default already runs this version\.$/m);
    expect(await description(origin)).toBe('second version');

    writeFileSync(file, scenario('fourth version'));
    await waitFor(r, /reloaded .*\n(?:.|\n)*reloaded .*\n(?:.|\n)*reloaded .*watched\.yaml; restarted session default\.\n/);
    expect(await description(origin)).toBe('fourth version');
    expect(r.stdout().match(/reloaded/g)).toHaveLength(3);
    expect(r.stdout()).not.toContain('no session uses it');
  });
});
