// docs/verify.md says what verify does; these keep it true: its rule table, the scenario recipe as
// printed, the seeded flaky run it describes, and the nightly job's verify step run as printed.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startMock, verify, type RunningMock } from '../../src/index.js';
import { VERIFY_RULES } from '../../src/verify/run.js';
import { failedIds, freshSession } from '../verify/support.js';

const doc = readFileSync(new URL('../../docs/verify.md', import.meta.url), 'utf8');
const block = (language: string, after: string): string => {
  const found = new RegExp(`${after}[\\s\\S]*?\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(doc)?.[1];
  if (found === undefined) throw new Error(`no ${language} block after ${after}`);
  return found;
};

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(async () => {
  await mock?.close();
});

describe('docs/verify.md', () => {
  it('lists every rule, in the report order, and no other', () => {
    const rows = [...doc.matchAll(/^\| `([a-z]+\.[a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual(VERIFY_RULES.map((r) => r.id));
  });

  it('is linked from the README, the reference and the CLI page', () => {
    for (const file of ['README.md', 'docs/reference.md', 'docs/cli.md']) {
      expect(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'), file).toMatch(/\]\((docs\/)?verify\.md/);
    }
  });

  it('shows a scenario file that fails exactly the rules it names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verify-doc-'));
    const file = join(dir, 'stale-list.yaml');
    writeFileSync(file, block('yaml', 'A scenario file breaks exactly'));
    const { handle, options } = freshSession(mock);
    handle.useScenario(file);
    const report = await verify(mock.url, { key: 'demo-pro', readOnly: true, ...options });
    expect(failedIds(report)).toEqual(['list.limit-bounds', 'list.status-filter', 'get.found']);
    expect(report.rules.find((r) => r.id === 'list.status-filter')?.message).toContain('status=available returned animal 7 with status "sold"');
  });

  it('says which rules the flaky scenario fails on a fresh start', async () => {
    const { options } = freshSession(mock, 'flaky');
    const report = await verify(mock.url, { key: 'demo-free', ...options });
    expect(failedIds(report)).toEqual(['list.status-filter', 'get.not-found']);
    expect(report.rules.find((r) => r.id === 'get.not-found')?.message).toContain('got no answer (read ECONNRESET)');
  });

  it('shows a nightly job whose verify step runs as printed and leaves JUnit XML', async () => {
    const job = parse(block('yaml', '## A nightly job'));
    const step = job.jobs.verify.steps.find((s: { name?: string }) => s.name === 'Verify staging');
    expect(Object.keys(step.env)).toEqual(['STAGING_URL', 'STAGING_API_KEY']);
    expect(step.run).toMatch(/^npx --yes petstore-mock verify /);
    // The package as this checkout builds it, in place of the one npx would fetch.
    const command = step.run.replace(/^npx --yes petstore-mock/, `node ${resolve('dist/cli.js')}`);
    const cwd = mkdtempSync(join(tmpdir(), 'verify-job-'));
    // Not a synchronous spawn: the mock answering it runs in this process.
    await promisify(execFile)('bash', ['-c', command], { cwd, env: { ...process.env, STAGING_URL: mock.url, STAGING_API_KEY: 'demo-business' } });
    const xml = readFileSync(join(cwd, 'verify.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('failures="0"');
    expect(xml).not.toContain('demo-business');
  });
});
