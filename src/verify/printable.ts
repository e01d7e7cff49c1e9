// Text a service sent, made safe to print: a body or a header value must not move the terminal's
// cursor, retitle it, change its colours, reorder what follows it, or end a line of the report.
// Also the JUnit XML verify and audit both write, so that the two reports stay alike; it is here
// because the command's build keeps what both load in command.js, where this file already is.

/**
 * C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional controls:
 * everything that acts on a terminal or a viewer rather than showing.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The text with every control character written as a `\uXXXX` escape, newlines included. */
export function printable(text: string): string {
  return text.replace(CONTROL, escape);
}

/** The same, but newlines kept: for a body shown over several lines. */
export function printableLines(text: string): string {
  return text.replace(CONTROL, (c) => (c === '\n' ? c : escape(c)));
}

/** JSON text with the controls JSON.stringify leaves raw (DEL, C1, separators, bidi) escaped too. */
export function escapedJson(json: string): string {
  // Outside strings JSON holds none of these, so every one found is inside a string.
  return json.replace(CONTROL, escape);
}

// Characters XML 1.0 cannot hold at all, and the five it needs escaped.
const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** Text as an XML attribute or element may hold it: the JUnit reports of verify and of audit. */
export function xml(text: string): string {
  return printableLines(text)
    .replace(NOT_XML, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** The tool a JUnit report is of: `petstore-mock verify` or `petstore-mock audit`. */
export type JunitTool = 'verify' | 'audit';

/** The opening tag of one JUnit test case, indented as the suite holds it. */
export function openCase(tool: JunitTool, name: string, time: string): string {
  return `    <testcase classname="petstore-mock.${tool}" name="${xml(name)}" time="${time}">`;
}

/**
 * The one JUnit test case, in error, of a run that could not run or stopped (`message` says why):
 * a dashboard then counts the run as broken rather than as passed.
 */
export function couldNotRunCase(tool: JunitTool, name: string, time: string, message: string): string {
  return `${openCase(tool, name, time)}\n      <error message="${xml(printable(message))}" type="could-not-run"/>\n    </testcase>`;
}

/** A second test suite after the tool's own (verify's parity), as written, and its counts. */
export interface ExtraSuite {
  xml: string;
  tests: number;
  failures: number;
}

/**
 * The JUnit document: one suite of `cases` (each as written, in order) for `target`, its counts on
 * both elements, then `extra` when given, its tests and failures added to `<testsuites>`'.
 */
export function junitDocument(
  tool: JunitTool,
  target: string,
  cases: readonly string[],
  counts: { failures: number; errors: number; skipped: number; time: string },
  extra?: ExtraSuite,
): string {
  const attributes = (tests: number, failures: number): string =>
    `tests="${tests}" failures="${failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${counts.time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-mock ${tool}" ${attributes(cases.length + (extra?.tests ?? 0), counts.failures + (extra?.failures ?? 0))}>`,
    `  <testsuite name="${xml(`petstore-mock ${tool} ${target}`)}" ${attributes(cases.length, counts.failures)}>`,
    ...cases,
    '  </testsuite>',
    ...(extra ? [extra.xml] : []),
    '</testsuites>',
    '',
  ].join('\n');
}
