#!/usr/bin/env node
import { parseSimpleArgs } from './fast-args.js';
import { fail, startFromArgs } from './start.js';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const simple = parseSimpleArgs(argv);
  if (simple) {
    await startFromArgs(simple, argv);
    return;
  }
  // Help, version, subcommands and mistakes go to yargs, loaded only for them.
  const { runYargs } = await import('./yargs-args.js');
  await runYargs(argv);
}

// Every failure leaves by this one line: a person's mistake as it is, anything else as a failed start.
main().catch(fail);
