// `petstore-mock state clear --state URL [--state-prefix NAME] [--force]`: removes a deployment
// from Redis on purpose, so the next replica starts a new world with whatever flags it has.
import { UserError, named } from '../core/errors.js';

/** What `state clear` was given. */
export interface StateClearArgs {
  state: string | undefined;
  statePrefix: string | undefined;
  force: boolean;
}

/** Removes the deployment and prints one line saying what went; refuses while replicas keep it alive. */
export async function stateClear(args: StateClearArgs): Promise<void> {
  if (args.state === undefined) throw new UserError('state clear needs --state redis://HOST:PORT/DB: the Redis that holds the deployment to remove.');
  if (args.statePrefix !== undefined && !/^[A-Za-z0-9._:-]{1,64}$/.test(args.statePrefix))
    throw new UserError(`--state-prefix must be 1 to 64 letters, digits and ._:-, not ${JSON.stringify(args.statePrefix)}.`);
  // One import of the Redis home's entry: the command's build keeps the home in a file of its own (scripts/build-cli.mjs).
  const { StateConnection, displayUrl, clearDeployment, DEFAULT_HEARTBEAT_EXPIRY_MS, hashTagPrefix } = await import('../state-redis/index.js');
  const prefix = hashTagPrefix(args.statePrefix);
  const conn = await StateConnection.open(args.state);
  try {
    const { live, deleted } = await clearDeployment(conn, prefix, args.force ? 'force' : 'stale');
    if (live > 0) {
      throw new UserError(
        `${live === 1 ? '1 replica keeps' : `${live} replicas keep`} the deployment ${prefix} in ${displayUrl(args.state)} alive (a heartbeat within the last ` +
          `${DEFAULT_HEARTBEAT_EXPIRY_MS / 1000} s); stop them first, or add --force (they then answer 503 until restarted).`,
      );
    }
    const done =
      deleted === 0
        ? `nothing was stored under the prefix ${prefix} in ${displayUrl(args.state)}; the next replica starts a new world.`
        : `removed the deployment ${prefix} from ${displayUrl(args.state)} (${deleted} keys); the next replica starts a new world.`;
    process.stdout.write(`${named(done)}\n`);
  } finally {
    await conn.close();
  }
}
