// The three reporters: the pretty one for a person, one JSON object in the contract's shape, and
// JUnit XML that parses whatever the service sent back.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { jsonReport, junitReport, notRunReport, prettyReport } from '../../src/verify/reporters.js';
import type { RuleResult, VerifyReport } from '../../src/index.js';

const report: VerifyReport = {
  base: 'https://staging.example.com/v1',
  passed: 1,
  failed: 1,
  skipped: 1,
  requests: 3,
  timings: { 'auth.required': 12, 'list.limit-bounds': 1500, 'deprecation.removal': 0 },
  rules: [
    { id: 'auth.required', ok: true, skipped: false, message: 'listPets answer 401 without Authorization', evidence: [] },
    {
      id: 'list.limit-bounds',
      ok: false,
      skipped: false,
      message: 'GET /v1/pets?limit=0 answered 422; limit is 1 to 100, so the specification says 400 & "quotes" <tags>',
      evidence: [
        {
          request: {
            method: 'GET',
            url: 'https://staging.example.com/v1/pets?limit=0&x=<y>',
            headers: { accept: 'application/json', authorization: 'Bearer <key>' },
          },
          response: {
            status: 422,
            headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '60', server: 'not shown', 'retry-after': '3' },
            body: '{"code":"bad","message":"control \u0001 and \u001b chars ]]> end","status":422}',
          },
        },
        {
          request: { method: 'POST', url: 'https://staging.example.com/v1/pets', headers: { authorization: 'Bearer <key>' }, body: '{"name":"x"}' },
          error: 'ECONNRESET',
        },
      ],
    },
    { id: 'deprecation.removal', ok: false, skipped: true, message: "the service's clock reads 2026, before the removal", evidence: [] },
  ],
};

describe('the pretty reporter', () => {
  it('prints a line per rule and, under a failure, what was sent and what came back', () => {
    const text = prettyReport(report);
    expect(text).toContain('petstore-mock verify https://staging.example.com/v1\n');
    expect(text).toMatch(/^ {2}pass {2}auth\.required {8}listPets answer 401/m);
    expect(text).toMatch(/^ {2}FAIL {2}list\.limit-bounds {4}GET \/v1\/pets\?limit=0 answered 422/m);
    expect(text).toMatch(/^ {2}skip {2}deprecation\.removal/m);
    expect(text).toContain('sent  GET https://staging.example.com/v1/pets?limit=0&x=<y>\n');
    expect(text).toMatch(/ {6}authorization: Bearer <key>\n/);
    expect(text).toMatch(/got {3}422\n/);
    // The headers the rules judge, not the others.
    expect(text).toContain('x-ratelimit-limit: 60');
    expect(text).toContain('retry-after: 3');
    expect(text).not.toContain('server: not shown');
    expect(text).toContain('got   no answer: ECONNRESET');
    expect(text).toContain('{"name":"x"}');
    expect(text.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed, 1 skipped; 3 requests sent');
  });
});

describe('the JSON reporter', () => {
  it('prints one object with base, passed, failed, skipped and rules {id, ok, skipped, message, evidence}', () => {
    const text = jsonReport(report);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.trimEnd().split('\n')).toHaveLength(1);
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual(['base', 'passed', 'failed', 'skipped', 'rules']);
    for (const rule of parsed.rules) expect(Object.keys(rule)).toEqual(['id', 'ok', 'skipped', 'message', 'evidence']);
    expect(parsed.rules[1].evidence[0].response.status).toBe(422);
    expect(parsed.rules[2]).toMatchObject({ ok: false, skipped: true, evidence: [] });
  });

  it('cuts a long body in the evidence and says how much it left out', () => {
    const long = structuredClone(report);
    const response = long.rules[1]?.evidence[0]?.response;
    if (!response) throw new Error('the fixture has a response');
    response.body = 'x'.repeat(5000);
    const parsed = JSON.parse(jsonReport(long));
    expect(parsed.rules[1].evidence[0].response.body).toBe(`${'x'.repeat(2000)}… (3000 more characters)`);
  });
});

describe('the JUnit reporter', () => {
  it('is well-formed XML with one test case per rule, whatever the service sent back', () => {
    const text = junitReport(report);
    expect(XMLValidator.validate(text)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(text);
    const suite = parsed.testsuites.testsuite;
    expect(suite).toMatchObject({
      name: 'petstore-mock verify https://staging.example.com/v1',
      tests: '3',
      failures: '1',
      skipped: '1',
      errors: '0',
      time: '1.512',
    });
    const cases = suite.testcase;
    expect(cases.map((c: { name: string }) => c.name)).toEqual([
      'auth.required: every operation answers 401 without Authorization',
      'list.limit-bounds: limit takes 1 to 100; 0 and 101 are refused with 400',
      'deprecation.removal: GET /pets/{petId} answers 410 from 5 December 2030',
    ]);
    expect(cases.map((c: { time: string }) => c.time)).toEqual(['0.012', '1.500', '0.000']);
    expect(cases[1].failure.message).toBe(report.rules[1]?.message);
    // Escaped in the file, as sent once read back.
    expect(text).toContain('sent  GET https://staging.example.com/v1/pets?limit=0&amp;x=&lt;y&gt;');
    expect(cases[1].failure['#text']).toContain('sent  GET https://staging.example.com/v1/pets?limit=0&x=<y>');
    // Control characters are written as escapes, which XML holds, rather than dropped.
    expect(cases[1].failure['#text']).toContain('control \\u0001 and \\u001b chars ]]> end');
    expect(cases[2].skipped.message).toBe(report.rules[2]?.message);
  });
});

describe('every reporter writes what a service sent with its control characters escaped', () => {
  // A terminal title, a line erase and a carriage return that would fake a pass line; NUL, DEL,
  // a C1 CSI, a line separator and a right-to-left override.
  const HOSTILE = '\u001b]0;PWNED\u0007\u001b[2K\r  pass  list.limit-bounds  fine\u0000\u007f\u009b31m\u2028\u202eevil';
  const hostile: VerifyReport = {
    ...report,
    base: `https://staging.example.com/v1`,
    rules: [
      report.rules[0] as RuleResult,
      {
        id: 'list.limit-bounds',
        ok: false,
        skipped: false,
        message: `GET /v1/pets answered 200 with Link ${HOSTILE}`,
        evidence: [
          {
            request: { method: 'GET', url: 'https://staging.example.com/v1/pets', headers: { authorization: 'Bearer <key>' } },
            response: { status: 200, headers: { link: HOSTILE, 'content-type': 'application/json' }, body: `[${HOSTILE}\n${HOSTILE}]` },
          },
          { request: { method: 'GET', url: 'https://staging.example.com/v1/pets', headers: {} }, error: HOSTILE },
        ],
      },
      { id: 'deprecation.removal', ok: false, skipped: true, message: HOSTILE, evidence: [] },
    ],
  };
  // What a terminal or a parser would act on; a newline only where the reporter puts one.
  const ACTING = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/;

  it.each([
    ['pretty', prettyReport],
    ['json', jsonReport],
    ['junit', junitReport],
  ] as const)('%s', (name, reporter) => {
    const text = reporter(hostile);
    expect(ACTING.exec(text)).toBeNull();
    expect(text).toContain(name === 'json' ? '\\u001b]0;PWNED\\u0007\\u001b[2K\\r' : '\\u001b]0;PWNED\\u0007\\u001b[2K\\u000d');
    // No line of the report is the faked one.
    expect(text.split('\n').filter((line) => /^ {2}pass {2}list\.limit-bounds/.test(line))).toEqual([]);
    if (name === 'json') {
      // Valid JSON that reads back as exactly what the service sent.
      const parsed = JSON.parse(text);
      expect(parsed.rules[1].message).toBe(`GET /v1/pets answered 200 with Link ${HOSTILE}`);
      expect(parsed.rules[1].evidence[0].response.body).toBe(`[${HOSTILE}\n${HOSTILE}]`);
      expect(text).toContain('\\u009b31m\\u2028\\u202eevil');
    }
    if (name === 'junit') {
      expect(XMLValidator.validate(text)).toBe(true);
      expect(text).toContain('\\u0000\\u007f\\u009b31m\\u2028\\u202eevil');
    }
    if (name === 'pretty') {
      expect(text).toContain('\\u0000\\u007f\\u009b31m\\u2028\\u202eevil');
      // The body's own line break stays a line, indented under the evidence.
      expect(text).toMatch(/\n {28,}\\u001b\]0;PWNED/);
    }
  });
});

describe('every reporter × every exit code: a well-formed report', () => {
  const passing: VerifyReport = { ...report, passed: 1, failed: 0, rules: report.rules.filter((r) => r.ok || r.skipped) };
  const stopped: VerifyReport = { ...passing, stopped: 'the service answered 429 (rate limited); rerun with --rate-limits to wait' };
  const notRun = notRunReport(report.base, 'could not run: http://127.0.0.1:9/v1 did not answer (ECONNREFUSED); check the address.');
  const runs = [
    ['0 (every rule holds)', passing, undefined],
    ['1 (a rule fails)', report, undefined],
    ['2 (stopped before the end)', stopped, 'verify stopped before the end: the service answered 429'],
    ['2 (could not run)', notRun, 'could not run: http://127.0.0.1:9/v1 did not answer'],
  ] as const;

  it.each(runs)('json on exit %s: one object in the contract shape, `error` on exit 2', (_exit, run, error) => {
    const text = jsonReport(run);
    expect(text.endsWith('}\n')).toBe(true);
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(parsed).slice(0, 5)).toEqual(['base', 'passed', 'failed', 'skipped', 'rules']);
    if (error === undefined) expect(parsed).not.toHaveProperty('error');
    else expect(String(parsed.error)).toContain(error);
  });

  it.each(runs)('junit on exit %s: valid XML, exit 2 as one test case in error', (_exit, run, error) => {
    const text = junitReport(run);
    expect(XMLValidator.validate(text)).toBe(true);
    const suite = (new XMLParser({ ignoreAttributes: false }).parse(text) as { testsuites: { testsuite: Record<string, unknown> } }).testsuites.testsuite;
    expect(suite['@_errors']).toBe(error === undefined ? '0' : '1');
    expect(suite['@_tests']).toBe(String(run.rules.length + (error === undefined ? 0 : 1)));
    if (error !== undefined) expect(text).toMatch(new RegExp(`<error message="${error.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^"]*" type="could-not-run"/>`));
  });

  it.each(runs)('pretty on exit %s: the base, then the verdict or the reason', (_exit, run, error) => {
    const text = prettyReport(run);
    expect(text).toMatch(/^petstore-mock verify https:\/\/staging\.example\.com\/v1\n\n/);
    expect(text.endsWith('\n')).toBe(true);
    if (run === notRun) expect(text).toBe(`petstore-mock verify ${report.base}\n\npetstore-mock: ${notRun.error}\n`);
    else expect(text).toMatch(/\d+ passed, \d+ failed, \d+ skipped; \d+ requests sent\n$/);
    if (error === undefined) expect(text).not.toContain('could not run');
  });
});
