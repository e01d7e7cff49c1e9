// The differences `--compare-mock` found, added to each reporter's output: a section of the pretty
// report, `"differences"` in the JSON object, a test suite `parity` in the JUnit XML (one test case
// per difference, or one passing case when there is none).
import type { Difference, VerifyReport } from './types.js';
import { escapedJson, printable, xml } from './printable.js';
import { render, type ReporterName } from './reporters.js';

function pretty(differences: readonly Difference[]): string {
  const lines = [
    '',
    `compared with an in-process mock: ${differences.length === 0 ? 'no difference' : `${differences.length} difference${differences.length === 1 ? '' : 's'}`}`,
  ];
  for (const d of differences) {
    lines.push(`  DIFF  ${printable(d.behaviour)}  ${printable(d.request)}`);
    lines.push(`        deployment: ${printable(d.deployment)}`, `        mock:       ${printable(d.mock)}`, `        ${printable(d.message)}`);
  }
  return `${lines.join('\n')}\n`;
}

function junitSuite(differences: readonly Difference[]): string {
  const cases =
    differences.length === 0
      ? ['    <testcase classname="petstore-mock.parity" name="parity: the mock answers as the deployment" time="0.000"/>']
      : differences.map(
          (d) =>
            `    <testcase classname="petstore-mock.parity" name="${xml(`${d.behaviour}: ${d.request}`)}" time="0.000">\n      <failure message="${xml(d.message)}" type="difference">${xml(`deployment: ${d.deployment}\nmock: ${d.mock}`)}</failure>\n    </testcase>`,
        );
  const tests = Math.max(1, differences.length);
  return [
    `  <testsuite name="petstore-mock parity" tests="${tests}" failures="${differences.length}" errors="0" skipped="0" time="0.000">`,
    ...cases,
    '  </testsuite>',
  ].join('\n');
}

/** Adds the parity suite to verify's JUnit XML, its counts to the outer `<testsuites>`. */
function junit(xmlText: string, differences: readonly Difference[]): string {
  const withSuite = xmlText.replace(/<\/testsuites>\s*$/, `${junitSuite(differences)}\n</testsuites>\n`);
  return withSuite.replace(/^(<testsuites [^>]*?)tests="(\d+)" failures="(\d+)"/m, (_all, head: string, tests: string, failures: string) => {
    return `${head}tests="${Number(tests) + Math.max(1, differences.length)}" failures="${Number(failures) + differences.length}"`;
  });
}

/** The report as the named reporter prints it, with the differences when there was a comparison. */
export function renderWithDifferences(report: VerifyReport, reporter: ReporterName): string {
  const text = render(report, reporter);
  const differences = report.differences;
  if (differences === undefined) return text;
  if (reporter === 'json') {
    const object = JSON.parse(text) as Record<string, unknown>;
    return `${escapedJson(JSON.stringify({ ...object, differences }))}\n`;
  }
  if (reporter === 'junit') return junit(text, differences);
  return `${text}${pretty(differences)}`;
}
