/**
 * The CLI's arguments as yargs would give them, before they are checked and converted. Every
 * value is the string that was typed; booleans are flags.
 */
export interface RawArgs {
  port: string;
  host: string;
  seed: string | undefined;
  pets: string | undefined;
  fixtures: string | undefined;
  scenario: string | undefined;
  key: string[];
  /** `--allow-host` values: names the admin API answers to besides loopback ones and --host. */
  allowHost: string[];
  adminToken: string | undefined;
  logFormat: 'pretty' | 'json';
  quiet: boolean;
  readyJson: boolean;
  state: string | undefined;
  statePrefix: string | undefined;
}

type ValueOption = 'port' | 'host' | 'seed' | 'pets' | 'fixtures' | 'scenario' | 'adminToken' | 'logFormat' | 'state' | 'statePrefix';

const VALUE_FLAGS: Record<string, ValueOption> = {
  '--port': 'port', '-p': 'port', '--host': 'host', '--seed': 'seed', '--pets': 'pets', '--fixtures': 'fixtures',
  '--scenario': 'scenario', '--admin-token': 'adminToken', '--log-format': 'logFormat',
  '--state': 'state', '--state-prefix': 'statePrefix',
};
const BOOLEAN_FLAGS: Record<string, 'quiet' | 'readyJson'> = { '--quiet': 'quiet', '--ready-json': 'readyJson' };

/** The defaults the yargs definition declares, so both parsers agree. */
export function defaultArgs(): RawArgs {
  return {
    port: '4010', host: '127.0.0.1', seed: undefined, pets: undefined, fixtures: undefined, scenario: undefined,
    key: [], allowHost: [], adminToken: undefined, logFormat: 'pretty', quiet: false, readyJson: false, state: undefined, statePrefix: undefined,
  };
}

/**
 * Parses the plain command lines that start a server (`--port 0 --quiet --key k:pro`) without
 * yargs, whose import alone costs more than a bare node:http server takes to start. Returns
 * undefined for anything else (help, version, subcommands, unknown or repeated flags, negations,
 * values that look like flags): yargs then parses it and gives its usual answers and errors.
 */
export function parseSimpleArgs(argv: readonly string[]): RawArgs | undefined {
  const args = defaultArgs();
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const bool = BOOLEAN_FLAGS[flag];
    if (bool !== undefined) {
      if (eq !== -1 || seen.has(bool)) return undefined;
      seen.add(bool);
      args[bool] = true;
      continue;
    }
    const name = flag === '--key' ? 'key' : flag === '--allow-host' ? 'allowHost' : VALUE_FLAGS[flag];
    if (name === undefined) return undefined;
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    if (name === 'key' || name === 'allowHost') {
      // yargs reads `--key a b` as two keys; a word after a repeatable flag's value is left to it.
      if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('-')) return undefined;
      args[name].push(value);
      continue;
    }
    if (seen.has(name)) return undefined;
    seen.add(name);
    if (name === 'logFormat') {
      if (value !== 'pretty' && value !== 'json') return undefined;
      args.logFormat = value;
    } else args[name] = value;
  }
  return args;
}
