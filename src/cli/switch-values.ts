// The values a switch (`--quiet`, `--ready-json`, `--watch`) takes, one list for the command line
// (`--quiet=yes`) and for its variable (`PETSTORE_MOCK_QUIET=yes`), as docs/cli.md lists them.
import { OPTIONS } from './options.js';

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/** A switch's value from its text, any case; undefined for a word it does not take. */
export function readSwitch(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (TRUE.includes(word)) return true;
  if (FALSE.includes(word)) return false;
  return undefined;
}

/** The one line for a value a switch does not take; `label` is how it was given (`--quiet`, a variable). */
export function switchMistake(label: string, text: string): string {
  const list = (words: string[]): string => `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`;
  return `${label} takes ${list(TRUE)} to turn it on, ${list(FALSE)} to turn it off, not ${JSON.stringify(text)}.`;
}

const SWITCHES = new Set<string>(OPTIONS.filter((o) => o.kind === 'boolean').map((o) => o.flag));

/**
 * The command line with each switch given a value (`--quiet=yes`, `--watch off`) written as the
 * bare switch or its negation, which is all the parser reads; a value given with `=` that a switch
 * does not take comes back as `mistake`. Words after `--` are left alone.
 */
export function normaliseSwitches(argv: readonly string[]): { argv: string[]; mistake?: string } {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const m = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
    const flag = m?.[1]?.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    if (!m || flag === undefined || !SWITCHES.has(flag)) {
      out.push(arg);
      continue;
    }
    let text = m[2];
    // `--watch off`: the next word, when it is one of the values (yargs itself reads only true and false).
    if (text === undefined && argv[i + 1] !== undefined && readSwitch(argv[i + 1] as string) !== undefined) text = argv[++i];
    if (text === undefined) {
      out.push(arg);
      continue;
    }
    const value = readSwitch(text);
    if (value === undefined) return { argv: out, mistake: switchMistake(`--${flag}`, text) };
    out.push(value ? `--${flag}` : `--no-${flag}`);
  }
  return { argv: out };
}
