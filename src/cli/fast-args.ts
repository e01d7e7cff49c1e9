import { OPTIONS, defaultArgs, isChoice, type Option, type RawArgs } from './options.js';

export type { RawArgs } from './options.js';
export { defaultArgs } from './options.js';

const BY_FLAG = new Map<string, Option>();
for (const option of OPTIONS) {
  BY_FLAG.set(`--${option.flag}`, option);
  if ('alias' in option) BY_FLAG.set(`-${option.alias}`, option);
}

/**
 * Parses the plain command lines that start a server (`--port 0 --quiet --key k:pro`) without
 * yargs, whose import alone costs more than a bare node:http server takes to start. Returns
 * undefined for anything else (help, version, subcommands, unknown or repeated flags, negations,
 * values that look like flags, a value a choice does not take): yargs then parses it and gives
 * its usual answers and errors.
 */
export function parseSimpleArgs(argv: readonly string[]): RawArgs | undefined {
  const args = defaultArgs() as Record<string, unknown>;
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const option = BY_FLAG.get(eq === -1 ? arg : arg.slice(0, eq));
    if (option === undefined) return undefined;
    if (option.kind === 'boolean') {
      if (eq !== -1 || seen.has(option.key)) return undefined;
      seen.add(option.key);
      args[option.key] = true;
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    if (option.kind === 'list') {
      // yargs reads `--key a b` as two keys; a word after a list value is left to it.
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('-')) return undefined;
      (args[option.key] as string[]).push(value);
      continue;
    }
    if (seen.has(option.key) || !isChoice(option, value)) return undefined;
    seen.add(option.key);
    args[option.key] = value;
  }
  return args as RawArgs;
}
