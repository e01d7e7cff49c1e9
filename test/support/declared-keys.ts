// Watches a real Redis with MONITOR and checks that every command a script ran touched only keys
// its call declared: Redis feeds a script call (FCALL, EVALSHA, EVAL) to MONITOR before the
// commands it runs, each of those marked as coming from Lua; COMMAND GETKEYS tells the keys of each.
import { Redis } from 'ioredis';

interface Fed {
  args: string[];
  lua: boolean;
}

const CALLS = new Set(['fcall', 'fcall_ro', 'evalsha', 'eval', 'evalsha_ro', 'eval_ro']);

/** The script commands seen while it watched, checked against their calls' declared keys. */
export class KeyWatch {
  private readonly fed: Fed[] = [];
  private constructor(
    private readonly monitor: Redis,
    private readonly client: Redis,
  ) {}

  static async start(url: string): Promise<KeyWatch> {
    const client = new Redis(url);
    // monitor() opens a connection of its own beside `client`; a `new Redis(url).monitor()` left
    // its first connection reconnecting forever to a stopped server, in every later file of the worker.
    const monitor = await client.monitor();
    const watch = new KeyWatch(monitor, client);
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      watch.fed.push({ args, lua: source === 'lua' });
    });
    return watch;
  }

  /** How many script calls were seen. */
  get calls(): number {
    return this.fed.filter((f) => !f.lua && CALLS.has(String(f.args[0]).toLowerCase())).length;
  }

  /** Each command a script ran on a key its call did not declare, as "CALLED FUNCTION: COMMAND KEY". */
  async undeclared(): Promise<string[]> {
    // Fed lines arrive in order; give the last one time to arrive.
    await this.client.ping();
    const positions = new Map<string, number[]>();
    const out = new Set<string>();
    let declared = new Set<string>();
    let name = '';
    for (const { args, lua } of this.fed) {
      const command = String(args[0]).toLowerCase();
      if (!lua) {
        if (CALLS.has(command)) {
          const n = Number(args[2]);
          declared = new Set(args.slice(3, 3 + n));
          name = String(args[1]);
        }
        continue;
      }
      const shape = `${command}/${args.length}`;
      let at = positions.get(shape);
      if (!at) {
        const keys = (await this.client.call('COMMAND', 'GETKEYS', ...args).catch(() => [])) as string[];
        at = keys.map((k) => args.indexOf(k, 1));
        positions.set(shape, at);
      }
      for (const i of at) {
        const key = args[i] as string;
        if (!declared.has(key)) out.add(`${name.replace(/_[0-9a-f]{12}$/, '')}: ${command.toUpperCase()} ${key}`);
      }
    }
    return [...out];
  }

  stop(): void {
    this.monitor.disconnect();
    this.client.disconnect();
  }
}
