// The `process_*` series every Prometheus client library exposes, under the names and units its
// conventions give them, so that the usual process dashboards work on the mock as they are.
import { readFileSync, readdirSync } from 'node:fs';

/** When the process started, in Unix seconds: fixed, so read once. */
const START_TIME_S = Math.round((Date.now() - process.uptime() * 1000) / 10) / 100;

/** The open descriptors and their limit, on systems with /proc (Linux); undefined elsewhere. */
function descriptors(): { open: number; max: number } | undefined {
  try {
    const open = readdirSync('/proc/self/fd').length;
    const limit = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    return limit === undefined ? undefined : { open, max: Number(limit) };
  } catch {
    return undefined;
  }
}

/** The virtual memory size in bytes (`vsize`, field 23 of /proc/self/stat); undefined without /proc. */
function virtualBytes(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: `state` is the first.
    const bytes = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[20]);
    return Number.isFinite(bytes) ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** The `process_*` families in the Prometheus text format, each with its HELP and TYPE. */
export function processMetrics(): string[] {
  const out: string[] = [];
  const family = (name: string, type: 'counter' | 'gauge', help: string, value: number): void => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name} ${value}`);
  };
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  family('process_cpu_user_seconds_total', 'counter', 'User CPU time spent, in seconds.', cpu.user / 1e6);
  family('process_cpu_system_seconds_total', 'counter', 'System CPU time spent, in seconds.', cpu.system / 1e6);
  family('process_cpu_seconds_total', 'counter', 'User and system CPU time spent, in seconds.', (cpu.user + cpu.system) / 1e6);
  family('process_start_time_seconds', 'gauge', 'Start time of the process since the Unix epoch, in seconds.', START_TIME_S);
  family('process_resident_memory_bytes', 'gauge', 'Resident memory size, in bytes.', memory.rss);
  const virtual = virtualBytes();
  if (virtual !== undefined) family('process_virtual_memory_bytes', 'gauge', 'Virtual memory size, in bytes.', virtual);
  family('process_heap_bytes', 'gauge', 'Heap size of the JavaScript engine, in bytes.', memory.heapTotal);
  const fds = descriptors();
  if (fds !== undefined) {
    family('process_open_fds', 'gauge', 'Open file descriptors.', fds.open);
    family('process_max_fds', 'gauge', 'The limit of open file descriptors.', fds.max);
  }
  return out;
}
