// npx and npm scripts start the CLI through a shell: npm → sh -c → node. A SIGTERM to npm ends
// the shell but not node, and a SIGHUP ends npm alone; either way the server would keep running
// and holding its port with nobody left to stop it. Under npm, the CLI therefore watches the
// two processes above it and stops when either goes away. Started any other way (the bin
// itself, `petstore-mock &` in a CI step whose shell then exits) it stays up, as servers do.
import { readFileSync } from 'node:fs';

/** The parent pid of a process, from /proc (Linux); undefined where that cannot be read. */
export function parentOf(pid: number): number | undefined {
  try {
    // Fields after the command (which may hold spaces and parentheses) start after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the environment says npm (npx, npm exec, npm run) started this process. */
export function startedByNpm(env: NodeJS.ProcessEnv): boolean {
  return env.npm_command !== undefined || env.npm_lifecycle_event !== undefined;
}

/** The chain of processes above this one that the CLI outlives only under npm: parent, grandparent. */
export interface Ancestry {
  parent: number;
  grandparent: number | undefined;
}

/** Whether the launcher went away: our parent changed, or our parent's parent did. */
export function launcherGone(start: Ancestry, now: Ancestry): boolean {
  return now.parent !== start.parent || (start.grandparent !== undefined && now.grandparent !== start.grandparent);
}

function ancestry(): Ancestry {
  const parent = process.ppid;
  return { parent, grandparent: parentOf(parent) };
}

/** Under npm, calls `stop` once the processes that started this one are gone. */
export function watchLauncher(stop: () => void, env: NodeJS.ProcessEnv = process.env, everyMs = 500): void {
  if (!startedByNpm(env)) return;
  const start = ancestry();
  const timer = setInterval(() => {
    if (!launcherGone(start, ancestry())) return;
    clearInterval(timer);
    stop();
  }, everyMs);
  timer.unref();
}
