// `petstore-mock verify`: the runner with its report printed, and the exit code the contract
// fixes: 0 every rule holds, 1 a rule fails, 2 verify could not run (or stopped before the end).
import { UserError, named } from '../core/errors.js';
import { printable } from './printable.js';
import { notRunReport, render, runError, type ReporterName } from './reporters.js';
import { runVerify } from './run.js';
import { VerifyCouldNotRun, type VerifyOptions } from './types.js';

export interface VerifyArgs extends VerifyOptions {
  baseUrl: string;
  reporter: ReporterName;
}

/** Runs verify from the command line, prints the report, and returns the exit code. */
export async function verifyCommand({ baseUrl, reporter, ...options }: VerifyArgs): Promise<number> {
  let report;
  try {
    report = await runVerify(baseUrl, options);
  } catch (error) {
    // A mistake in the command line (a base URL that is none) is the usage line and exit 1, as for the other flags.
    if (error instanceof UserError && !(error instanceof VerifyCouldNotRun)) throw error;
    // Whatever stopped it, the report is written (`> verify.xml` must hold one); the line on
    // stderr is for the job's log, and pretty's report is that line already.
    const reason = error instanceof VerifyCouldNotRun ? error.reason : `could not run: ${error instanceof Error ? error.message : String(error)}`;
    process.stdout.write(render(notRunReport(baseUrl, reason), reporter));
    if (reporter !== 'pretty') process.stderr.write(`${printable(named(reason))}\n`);
    return 2;
  }
  process.stdout.write(render(report, reporter));
  const stopped = runError(report);
  if (stopped !== undefined) process.stderr.write(`${printable(named(stopped))}\n`);
  if (report.failed > 0 || (report.differences?.length ?? 0) > 0) return 1;
  return report.stopped === undefined ? 0 : 2;
}
