// `petstore-mock audit ORIGIN`: the client audit of a running mock, printed by a reporter, and the
// exit code a pipeline fails on: 0 no error finding, 1 an error finding, 2 could not run.
import { fetchAudit } from './fetch-audit.js';
import { AuditCouldNotRun } from './could-not-run.js';
import { maskKey } from './mask.js';
import { renderAudit, type AuditOutcome, type AuditReporterName } from './reporters.js';
import { named } from '../core/errors.js';
import { printable } from '../verify/printable.js';

export interface AuditArgs {
  origin: string;
  session?: string;
  key?: string;
  adminToken?: string;
  reporter: AuditReporterName;
}

/** Runs the audit command, prints the outcome, and returns the exit code. */
export async function auditCommand(args: AuditArgs): Promise<number> {
  const where = `${args.origin.replace(/[?#].*$/, '')}${args.session === undefined ? '' : ` session ${JSON.stringify(args.session)}`}`;
  const outcome: AuditOutcome = { target: maskKey(maskKey(where, args.key), args.adminToken) };
  try {
    outcome.report = await fetchAudit(args.origin, { session: args.session, key: args.key, adminToken: args.adminToken });
  } catch (error) {
    if (!(error instanceof AuditCouldNotRun)) throw error;
    outcome.problem = error.message;
  }
  // An audit that judged no request proves nothing: a pipeline must not pass on it.
  if (outcome.report && outcome.report.judged.requests === 0) {
    const narrowed = args.key === undefined ? '' : ' with the key given';
    outcome.problem = named(
      `the audit judged no requests${narrowed} in ${args.session === undefined ? 'the default session' : `session ${JSON.stringify(args.session)}`}, so it proves nothing: check --session and --key, and that the client's requests reached this mock.`,
    );
  }
  const text = renderAudit(outcome, args.reporter);
  process.stdout.write(maskKey(maskKey(text, args.key), args.adminToken));
  if (outcome.problem !== undefined) {
    if (args.reporter !== 'pretty') process.stderr.write(`${printable(maskKey(maskKey(outcome.problem, args.key), args.adminToken))}\n`);
    return 2;
  }
  return outcome.report!.ok ? 0 : 1;
}
