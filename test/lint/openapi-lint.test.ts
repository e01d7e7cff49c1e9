import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';

const run = promisify(execFile);
const bin = (name: string): string => resolve('node_modules/.bin', name);
let mock: RunningMock;
let file: string;

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  // The document as clients get it: served, not the source object.
  const served = await (await fetch(`${mock.url}/openapi.json`)).text();
  file = join(mkdtempSync(join(tmpdir(), 'petstore-lint-')), 'openapi.json');
  writeFileSync(file, served);
});
afterAll(async () => {
  await mock?.close();
});

/** Runs a linter that exits non-zero on findings; its JSON report is on stdout either way. */
async function report(command: string, args: string[]): Promise<string> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  try {
    return (await run(command, args, { env, maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? '';
  }
}

describe('the served OpenAPI document passes the linters client teams run', () => {
  it('Spectral, spectral:oas: no error, warning, info or hint', async () => {
    const out = await report(bin('spectral'), [
      'lint',
      file,
      '--ruleset',
      resolve('test/lint/spectral.yaml'),
      '--format',
      'json',
      '--fail-severity',
      'hint',
      '--quiet',
    ]);
    const findings = JSON.parse(out.slice(out.indexOf('['))) as { code: string; message: string; path: string[] }[];
    expect(findings.map((f) => `${f.code}: ${f.message} at ${f.path.join('.')}`)).toEqual([]);
  }, 60_000);

  it("Redocly's recommended rules: zero errors and zero warnings", async () => {
    const out = await report(bin('redocly'), ['lint', file, '--config', resolve('test/lint/redocly.yaml'), '--format', 'json']);
    const result = JSON.parse(out.slice(out.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(result.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(result.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
