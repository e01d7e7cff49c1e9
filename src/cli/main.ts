#!/usr/bin/env node
import { parseSimpleArgs } from './fast-args.js';
import { fail, startFromArgs } from './start.js';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const simple = parseSimpleArgs(argv);
  if (simple) {
    await startFromArgs(simple);
    return;
  }
  // Help, version, subcommands and mistakes go to yargs, loaded only for them.
  const { runYargs } = await import('./yargs-args.js');
  await runYargs(argv);
}

main().catch((error: unknown) => {
  fail(`failed to start: ${((error as Error)?.message ?? String(error)).replace(/^petstore-mock: /, '')}`);
});
