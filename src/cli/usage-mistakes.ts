// yargs' complaints about a command line, made into one line in the tool's voice: an unknown
// flag gets a "did you mean", and every line ends by pointing at --help.
import { OPTIONS } from './options.js';
import { nearestName } from '../core/near-name.js';

const HELP = 'petstore-mock --help lists the options';
const COMMANDS = ['scenarios', 'verify', 'state'];
const FLAGS = [...OPTIONS.flatMap((o) => ('alias' in o ? [`--${o.flag}`, `-${o.alias}`] : [`--${o.flag}`])), '--help', '-h', '--version'];

const bare = (name: string): string => name.replace(/^-+/, '');

/** The known flag or command closest to `typed`, if one is close enough to be what was meant. */
export function suggestion(typed: string): string | undefined {
  const candidates = typed.startsWith('-') ? FLAGS : COMMANDS;
  // Dashes are no letters to slip on: names are compared without them, and given back with them.
  const names = candidates.map(bare);
  const near = nearestName(bare(typed), names);
  return near === undefined ? undefined : candidates[names.indexOf(near)];
}

/** How an unknown name yargs reports was typed: `--name`, `-n`, or a bare word. */
function asTyped(name: string, argv: readonly string[]): string {
  for (const arg of argv) {
    const flag = arg.split('=')[0] as string;
    if (flag === `--${name}` || flag === `-${name}`) return flag;
  }
  return name;
}

/**
 * The one line for a command line yargs refused. `message` is yargs' own text; its "Unknown
 * argument(s)" form is recognised to name each unknown flag or word with a suggestion.
 */
export function usageMistake(message: string, argv: readonly string[]): string {
  const unknown = /^Unknown arguments?: (.+)$/.exec(message.trim());
  if (unknown) {
    const names = (unknown[1] as string).split(', ').map((name) => asTyped(name, argv));
    const flags = names.filter((n) => n.startsWith('-')).length;
    const kind = flags === names.length ? 'option' : flags === 0 ? 'command' : 'argument';
    const described = names.map((typed) => {
      const near = suggestion(typed);
      return near ? `${typed} (did you mean ${near}?)` : typed;
    });
    return `unknown ${kind}${names.length > 1 ? 's' : ''} ${described.join(', ')}; ${HELP}.`;
  }
  const missing = /^Not enough arguments following: (.+)$/.exec(message.trim());
  if (missing) return `--${missing[1] as string} needs a value; ${HELP}.`;
  // Any other complaint (a flag without its value, say) as one sentence with the pointer.
  const text = message
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replace(/[.:]$/, '');
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}; ${HELP}.`;
}
