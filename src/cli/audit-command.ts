// The `audit` subcommand as yargs declares it. Only the declaration lives here: the runner loads
// when the command runs, so neither a server start nor `--help` pays for it.
import type { Argv } from 'yargs';
import { UsageError, givenOnce } from './start.js';

/** The options of `petstore-mock audit ORIGIN`. */
export function auditOptions<T>(y: Argv<T>) {
  return y
    .positional('origin', { type: 'string', describe: 'The mock to audit, e.g. http://127.0.0.1:4010 (a trailing /v1 is allowed)' })
    .option('session', { type: 'string', requiresArg: true, describe: 'The session to audit (X-Mock-Session); the default session without it' })
    .option('key', { type: 'string', requiresArg: true, describe: "Only this key's requests (never printed)" })
    .option('admin-token', { type: 'string', requiresArg: true, describe: "The mock's --admin-token, when it has one (never printed)" })
    .option('reporter', {
      choices: ['pretty', 'json', 'junit', 'sarif', 'github'] as const,
      requiresArg: true,
      default: 'pretty' as const,
      describe: 'How to print the verdict',
    });
}

/** Runs `audit` with what yargs parsed; sets the exit code (0 no error finding, 1 an error finding, 2 could not run). */
export async function runAuditCommand(argv: Record<string, unknown>): Promise<void> {
  const once = (name: string): string | undefined => {
    const value = givenOnce(name, argv[name]);
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} needs a value.`);
    return value;
  };
  const origin = argv.origin;
  if (typeof origin !== 'string' || origin === '')
    throw new UsageError('audit needs the origin of the mock to audit: petstore-mock audit http://127.0.0.1:4010 [--session ID].');
  const { auditCommand } = await import('../audit-command/cli.js');
  process.exitCode = await auditCommand({
    origin,
    session: once('session'),
    key: once('key'),
    adminToken: once('admin-token'),
    reporter: (once('reporter') ?? 'pretty') as 'pretty' | 'json' | 'junit' | 'sarif' | 'github',
  });
}
