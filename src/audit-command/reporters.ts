// The ways `petstore-mock audit` prints its verdict: for a person (pretty), for a program (the
// object of GET /__admin/audit), for CI test views (JUnit XML), for code scanning (SARIF 2.1.0) and
// for GitHub Actions (workflow commands that become annotations). Each is well formed on every
// exit, the one where the audit could not run included.
import { AUDIT_RULES, type AuditFinding, type AuditReport, type AuditRule } from '../core/audit/audit.js';
import { couldNotRunCase, escapedJson, junitDocument, openCase, printable, printableLines, xml } from '../verify/printable.js';

export type AuditReporterName = 'pretty' | 'json' | 'junit' | 'sarif' | 'github';

/** What the command has to print: the report, or why there is none, and which session it read. */
export interface AuditOutcome {
  /** The origin and session read, as a person reads them (never the key). */
  target: string;
  report?: AuditReport;
  /** Why the audit could not run, or proves nothing; the exit is then 2. */
  problem?: string;
}

const DOCS = 'https://github.com/petstore-mock/petstore-mock/blob/main/docs/audit.md';
const RULES = Object.keys(AUDIT_RULES) as AuditRule[];

/** What each rule asks, for the reporters that list rules. */
export const RULE_TITLES: Readonly<Record<AuditRule, string>> = {
  'early-retry': 'Wait the Retry-After of a 429 or 503 before sending again',
  'request-while-banned': 'Send nothing while the key is banned',
  'call-after-removal': 'Stop calling an operation once it answered 410 Gone',
  'repeated-rejected-request': 'Do not repeat unchanged a request answered 400, 401, 404 or 410',
  'unsafe-create-retry': 'Do not send a create again after an answer that leaves its outcome unknown',
  'retry-after-misread': 'Read Retry-After in seconds, or as an HTTP-date',
  'no-backoff': 'Back off exponentially across repeated 429s',
  'no-jitter': 'Spread the retries of parallel callers (jitter)',
  'deprecated-call': 'Move off deprecated operations before their removal',
};

function keyPart(f: AuditFinding): string {
  return f.key === null ? '' : `, key ${f.key}`;
}

function pretty(o: AuditOutcome): string {
  const lines = [`petstore-mock audit ${printable(o.target)}`, ''];
  if (o.report) {
    for (const f of o.report.findings)
      lines.push(`  ${f.severity === 'error' ? 'ERROR' : 'warn '}  ${f.rule}${printable(keyPart(f))}: ${printable(f.message)}`);
    const errors = o.report.findings.filter((f) => f.severity === 'error').length;
    const warnings = o.report.findings.length - errors;
    if (o.report.findings.length === 0) lines.push('  no finding');
    lines.push('', `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}; ${o.report.judged.requests} requests judged`);
  }
  if (o.problem !== undefined) lines.push(printable(o.problem));
  return `${lines.join('\n')}\n`;
}

function json(o: AuditOutcome): string {
  const body = o.report ?? { error: o.problem };
  return `${escapedJson(JSON.stringify(body))}\n`;
}

/** One test case per rule: an error finding fails it, warnings are written out; a run that could not run is one errored case. */
function junit(o: AuditOutcome): string {
  const findings = o.report?.findings ?? [];
  const cases = o.report
    ? RULES.map((rule) => {
        const mine = findings.filter((f) => f.rule === rule);
        const open = openCase('audit', `${rule}: ${RULE_TITLES[rule]}`, '0');
        const text = mine.map((f) => `#${f.requests.join(', #')}${keyPart(f)}: ${f.message}`).join('\n');
        if (mine.length === 0) return `${open}</testcase>`;
        if (AUDIT_RULES[rule] === 'error')
          return `${open}\n      <failure message="${xml(printable(mine[0]!.message))}" type="${rule}">${xml(text)}</failure>\n    </testcase>`;
        return `${open}\n      <system-out>${xml(`warning: ${text}`)}</system-out>\n    </testcase>`;
      })
    : [];
  if (o.problem !== undefined) cases.push(couldNotRunCase('audit', 'audit', '0', o.problem));
  const failures = o.report ? RULES.filter((r) => AUDIT_RULES[r] === 'error' && findings.some((f) => f.rule === r)).length : 0;
  return junitDocument('audit', o.target, cases, { failures, errors: o.problem === undefined ? 0 : 1, skipped: 0, time: '0' });
}

/** One run of SARIF 2.1.0: the rules, a result per finding, and a notification when it could not run. */
function sarif(o: AuditOutcome): string {
  const results = (o.report?.findings ?? []).map((f) => ({
    ruleId: f.rule,
    ruleIndex: RULES.indexOf(f.rule),
    level: f.severity,
    message: { text: `${f.message} (journal ${f.requests.map((s) => `#${s}`).join(', ')}${keyPart(f)})` },
    locations: [
      { physicalLocation: { artifactLocation: { uri: 'petstore-mock-journal' } }, logicalLocations: [{ name: f.key ?? 'no valid key', kind: 'object' }] },
    ],
    properties: { key: f.key, keyId: f.keyId, requests: f.requests },
  }));
  const invocation: Record<string, unknown> = { executionSuccessful: o.problem === undefined };
  if (o.problem !== undefined) invocation.toolExecutionNotifications = [{ level: 'error', message: { text: o.problem } }];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'petstore-mock audit',
            informationUri: DOCS,
            rules: RULES.map((id) => ({
              id,
              shortDescription: { text: RULE_TITLES[id] },
              helpUri: `${DOCS}#${id}`,
              defaultConfiguration: { level: AUDIT_RULES[id] },
            })),
          },
        },
        invocations: [invocation],
        results,
      },
    ],
  };
  return `${escapedJson(JSON.stringify(log))}\n`;
}

/** A workflow command's data: `%`, CR and LF escaped; properties also escape `:` and `,`. */
function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** GitHub Actions workflow commands: `::error` / `::warning` per finding, which the run shows as annotations. */
function github(o: AuditOutcome): string {
  const lines = (o.report?.findings ?? []).map(
    (f) => `::${f.severity} title=${property(`petstore-mock audit: ${f.rule}${keyPart(f)}`)}::${data(printableLines(f.message))}`,
  );
  if (o.problem !== undefined) lines.push(`::error title=${property('petstore-mock audit could not run')}::${data(printableLines(o.problem))}`);
  else if (lines.length === 0)
    lines.push(`::notice title=${property('petstore-mock audit')}::${data(`no finding in ${o.report?.judged.requests ?? 0} requests of ${o.target}`)}`);
  return `${lines.join('\n')}\n`;
}

/** The outcome as the named reporter prints it. */
export function renderAudit(o: AuditOutcome, reporter: AuditReporterName): string {
  return ({ pretty, json, junit, sarif, github }[reporter] ?? pretty)(o);
}
