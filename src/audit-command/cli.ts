// `petstore-mock audit ORIGIN`: the client audit of a running mock, printed by a reporter, and the
// exit code a pipeline fails on: 0 no error finding, 1 an error finding, 2 could not run.
import { fetchAudit, maskSecrets, type RemoteAuditOptions } from './fetch-audit.js';
import { AuditCouldNotRun } from './could-not-run.js';
import { renderAudit, type AuditOutcome, type AuditReporterName } from './reporters.js';
import { named } from '../core/errors.js';
import { printable } from '../verify/printable.js';

export interface AuditArgs extends RemoteAuditOptions {
  origin: string;
  reporter: AuditReporterName;
}

/** Runs the audit command, prints the outcome, and returns the exit code. */
export async function auditCommand({ origin, reporter, ...options }: AuditArgs): Promise<number> {
  const mask = (text: string): string => maskSecrets(text, options.key, options.adminToken);
  const session = options.session === undefined ? 'the default session' : `session ${JSON.stringify(options.session)}`;
  const outcome: AuditOutcome = { target: mask(`${origin.replace(/[?#].*$/, '')}${options.session === undefined ? '' : ` ${session}`}`) };
  try {
    outcome.report = await fetchAudit(origin, options);
  } catch (error) {
    if (!(error instanceof AuditCouldNotRun)) throw error;
    outcome.problem = error.message;
  }
  // An audit that judged no request proves nothing: a pipeline must not pass on it.
  if (outcome.report && outcome.report.judged.requests === 0) {
    const narrowed = options.key === undefined ? '' : ' with the key given';
    outcome.problem = named(
      `the audit judged no requests${narrowed} in ${session}, so it proves nothing: check --session and --key, and that the client's requests reached this mock.`,
    );
  }
  process.stdout.write(mask(renderAudit(outcome, reporter)));
  if (outcome.problem !== undefined) {
    if (reporter !== 'pretty') process.stderr.write(`${printable(mask(outcome.problem))}\n`);
    return 2;
  }
  return outcome.report!.ok ? 0 : 1;
}
