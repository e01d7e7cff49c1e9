// The three ways a report is printed: for a person (pretty), for a program (one JSON object, as
// the public contract fixes it) and for CI test views (JUnit XML); each with the differences
// `--compare-mock` found, when it ran (a section, `"differences"`, a test suite `parity`).
import { named } from '../core/errors.js';
import type { Difference, Exchange, RuleResult, VerifyReport } from './types.js';
import { EVIDENCE_CHARS } from './client.js';
import { couldNotRunCase, escapedJson, junitDocument, openCase, printable, printableLines, xml, type ExtraSuite } from './printable.js';
import { VERIFY_RULES } from './run.js';

export type ReporterName = 'pretty' | 'json' | 'junit';

/** A body already trimmed as the client keeps it. */
const TRIMMED = new RegExp(`^[\\s\\S]{${EVIDENCE_CHARS}}… \\(\\d+ more characters[^)]*\\)$`);

function cut(text: string, max = EVIDENCE_CHARS): string {
  if (max === EVIDENCE_CHARS && TRIMMED.test(text)) return text;
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** The report with evidence bodies cut to a readable length. */
function trimmed(rule: RuleResult): RuleResult {
  const evidence = rule.evidence.map((e) => ({
    ...e,
    request: { ...e.request, ...(e.request.body === undefined ? {} : { body: cut(e.request.body) }) },
    ...(e.response ? { response: { ...e.response, body: cut(e.response.body) } } : {}),
  }));
  return { ...rule, evidence };
}

/**
 * Why a run has no verdict on every rule (exit 2): it could not run at all, or it stopped before
 * the end. Each reporter shows it in its own form, so a report file is well formed on every exit.
 */
export function runError(report: VerifyReport): string | undefined {
  return report.stopped === undefined ? undefined : `verify stopped before the end: ${report.stopped}.`;
}

/** The report of a run that could not start: no rule checked, and why (`error`). */
export function notRunReport(base: string, error: string): VerifyReport & { error: string } {
  return { base, passed: 0, failed: 0, skipped: 0, rules: [], requests: 0, timings: {}, error };
}

type Reported = VerifyReport & { error?: string };
const errorOf = (report: Reported): string | undefined => report.error ?? runError(report);

/** The JSON reporter: one object, `{base, passed, failed, skipped, rules}` (and `error` on exit 2), on one line. */
export function jsonReport(report: Reported): string {
  const { base, passed, failed, skipped, rules } = report;
  const error = errorOf(report);
  const object = { base, passed, failed, skipped, rules: rules.map(trimmed), ...(error === undefined ? {} : { error }), differences: report.differences };
  return `${escapedJson(JSON.stringify(object))}\n`;
}

/** The answer headers evidence shows a person: those the rules judge. */
const SHOWN = /^(content-type|date|retry-after|x-ratelimit-.*|deprecation|sunset|link|www-authenticate|location)$/;

/** What was sent and what came back, indented under a failed rule. */
export function evidenceText(exchange: Exchange, indent: string): string {
  const lines = [printable(`sent  ${exchange.request.method} ${exchange.request.url}`)];
  for (const [name, value] of Object.entries(exchange.request.headers))
    if (name !== 'accept' && name !== 'accept-encoding') lines.push(printable(`      ${name}: ${value}`));
  if (exchange.request.body !== undefined) lines.push(`      ${printable(cut(exchange.request.body, 500))}`);
  const response = exchange.response;
  if (!response) lines.push(printable(`got   no answer: ${exchange.error ?? 'unknown'}`));
  else {
    lines.push(`got   ${response.status}`);
    for (const [name, value] of Object.entries(response.headers)) if (SHOWN.test(name)) lines.push(printable(`      ${name}: ${value}`));
    // A body's own lines stay lines, each indented under the evidence, so none can pass for a rule's.
    if (response.body !== '') lines.push(`      ${printableLines(cut(response.body, 500)).replace(/\n/g, `\n${indent}      `)}`);
  }
  return lines.map((line) => `${indent}${line}`).join('\n');
}

const MARK = { pass: 'pass', fail: 'FAIL', skip: 'skip' };

/** The pretty reporter: a line per rule, and under a failed rule what was sent and what came back. */
export function prettyReport(report: Reported): string {
  const header = `petstore-mock verify ${printable(report.base)}`;
  if (report.error !== undefined) return `${header}\n\n${printable(named(report.error))}\n`;
  const width = Math.max(...report.rules.map((r) => r.id.length));
  const lines = [header, ''];
  for (const rule of report.rules) {
    const mark = rule.ok ? MARK.pass : rule.skipped ? MARK.skip : MARK.fail;
    lines.push(`  ${mark}  ${printable(rule.id.padEnd(width))}  ${printable(rule.message)}`);
    for (const exchange of rule.evidence) lines.push(evidenceText(exchange, `        ${' '.repeat(width)}`));
  }
  lines.push('', `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped; ${report.requests} requests sent`);
  const differences = report.differences;
  if (differences !== undefined) {
    const count = differences.length === 0 ? 'no difference' : `${differences.length} difference${differences.length === 1 ? '' : 's'}`;
    lines.push('', `compared with an in-process mock: ${count}`);
    for (const d of differences) {
      lines.push(`  DIFF  ${printable(d.behaviour)}  ${printable(d.request)}`);
      lines.push(`        deployment: ${printable(d.deployment)}`, `        mock:       ${printable(d.mock)}`, `        ${printable(d.message)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The JUnit reporter: one test suite, one test case per rule, failures with their evidence. */
export function junitReport(report: Reported): string {
  const titles = new Map(VERIFY_RULES.map((r) => [r.id, r.title]));
  const seconds = (id: string): string => ((report.timings[id] ?? 0) / 1000).toFixed(3);
  const total = (Object.values(report.timings).reduce((a, b) => a + b, 0) / 1000).toFixed(3);
  // A run that could not run, or stopped, is one test case in error: dashboards count it as broken, not as passed.
  const error = errorOf(report);
  const errors = error === undefined ? [] : [couldNotRunCase('verify', 'verify run', '0.000', error)];
  const cases = report.rules.map((rule) => {
    const open = openCase('verify', `${rule.id}: ${titles.get(rule.id) ?? ''}`, seconds(rule.id));
    if (rule.skipped) return `${open}\n      <skipped message="${xml(printable(rule.message))}"/>\n    </testcase>`;
    if (!rule.ok) {
      const evidence = rule.evidence.map((e) => evidenceText(e, '')).join('\n\n');
      return `${open}\n      <failure message="${xml(printable(rule.message))}" type="rule">${xml(evidence)}</failure>\n    </testcase>`;
    }
    return `${open}\n      <system-out>${xml(rule.message)}</system-out>\n    </testcase>`;
  });
  const counts = { failures: report.failed, errors: errors.length, skipped: report.skipped, time: total };
  return junitDocument('verify', report.base, [...errors, ...cases], counts, report.differences && paritySuite(report.differences));
}

/** `--compare-mock`'s test suite: a failing case per difference, or one passing case when there is none. */
function paritySuite(differences: readonly Difference[]): ExtraSuite {
  const cases =
    differences.length === 0
      ? ['    <testcase classname="petstore-mock.parity" name="parity: the mock answers as the deployment" time="0.000"/>']
      : differences.map(
          (d) =>
            `    <testcase classname="petstore-mock.parity" name="${xml(`${d.behaviour}: ${d.request}`)}" time="0.000">\n      <failure message="${xml(d.message)}" type="difference">${xml(`deployment: ${d.deployment}\nmock: ${d.mock}`)}</failure>\n    </testcase>`,
        );
  const head = `  <testsuite name="petstore-mock parity" tests="${cases.length}" failures="${differences.length}" errors="0" skipped="0" time="0.000">`;
  return { xml: [head, ...cases, '  </testsuite>'].join('\n'), tests: cases.length, failures: differences.length };
}

/** The report as the named reporter prints it, with the differences when there was a comparison. */
export function render(report: Reported, reporter: ReporterName): string {
  return ({ pretty: prettyReport, json: jsonReport, junit: junitReport }[reporter] ?? prettyReport)(report);
}
