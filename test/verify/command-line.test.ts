// The verify subcommand among the command line's words: a slip of its name gets a suggestion, and
// its options are its own (the server's --key takes KEY:PLAN and repeats; verify's takes one key).
import { describe, expect, it } from 'vitest';
import { usageMistake } from '../../src/cli/usage-mistakes.js';
import { parseSimpleArgs } from '../../src/cli/fast-args.js';

describe('the verify subcommand', () => {
  it('is suggested for a slip of its name', () => {
    expect(usageMistake('Unknown argument: verfy', ['verfy', 'http://x/v1'])).toMatch(/^unknown commands? verfy \(did you mean verify\?\)/);
  });

  it('is left to yargs by the fast parser, which only starts servers', () => {
    expect(parseSimpleArgs(['verify', 'http://127.0.0.1:4010/v1', '--key', 'demo-pro'])).toBeUndefined();
    expect(parseSimpleArgs(['--key', 'demo-pro'])).toMatchObject({ key: ['demo-pro'] });
  });
});
