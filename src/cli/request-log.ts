import type { JournalEntry } from '../core/state/journal.js';

export type LogFormat = 'pretty' | 'json';

/** Counts of a log's output, live: `/__admin/health` shows them. */
export interface LogStats {
  /** Lines dropped because the output was not being read. */
  droppedLines: number;
  /** True while the output's reader is behind and lines are being dropped. */
  readerBehind?: boolean;
}

/** How many request lines the pretty log prints in one second before it starts counting instead. */
export const DEFAULT_LINES_PER_SECOND = 100;

/** Options of the request logger; the clock and timer are passed in so tests can drive them. */
export interface RequestLoggerOptions {
  /**
   * Lines printed per wall-clock second; the rest of that second is summed up in one line. The
   * pretty log (for people) prints 100 by default; the JSON log (for machines, which want every
   * request) has no cap unless one is given.
   */
  linesPerSecond?: number;
  now?: () => number;
  /** Runs `fn` after `ms`; must not keep the process alive. */
  setTimer?: (fn: () => void, ms: number) => void;
  /** Where dropped lines are counted. */
  stats?: LogStats;
}

/**
 * A request logger. Lines are batched and written once per event-loop turn. `write` returns false
 * when it dropped the text (its reader is not keeping up): the lines are counted, and the next
 * text written starts with a line saying how many were lost. In the pretty log, past
 * `linesPerSecond` in one second the rest of that second is counted and summed up in one line:
 * nobody reads thousands of lines a second, and formatting and writing them cost a load test a
 * large share of the mock's throughput when measured. The JSON log writes a line per request, for
 * the collectors that read it; the journal keeps every request's details either way.
 */
export function createRequestLogger(format: LogFormat, write: (text: string) => unknown, options: RequestLoggerOptions = {}): (entry: JournalEntry) => void {
  const cap = options.linesPerSecond ?? (format === 'pretty' ? DEFAULT_LINES_PER_SECOND : Number.POSITIVE_INFINITY);
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms).unref());
  let pending: string[] = [];
  let scheduled = false;
  let second = -1;
  let printed = 0;
  let skipped = 0;
  let statuses = new Map<number, number>();
  let timerSet = false;
  const stats = options.stats ?? { droppedLines: 0 };
  let droppedSinceWrite = 0;

  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = (droppedSinceWrite > 0 ? droppedLine(format, droppedSinceWrite) : '') + pending.join('');
    const lines = pending.length;
    pending = [];
    if (write(text) === false) {
      droppedSinceWrite += lines;
      stats.droppedLines += lines;
    } else {
      droppedSinceWrite = 0;
    }
  };
  const schedule = (): void => {
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  const summarise = (): void => {
    if (skipped === 0) return;
    pending.push(summaryLine(format, skipped, statuses));
    skipped = 0;
    statuses = new Map();
    schedule();
  };
  const enterSecond = (current: number): void => {
    if (current === second) return;
    summarise();
    second = current;
    printed = 0;
  };

  return (entry) => {
    enterSecond(Math.floor(now() / 1000));
    if (printed < cap) {
      printed++;
      pending.push(format === 'json' ? `${JSON.stringify({ level: 'info', msg: 'request', ...entry })}\n` : prettyLine(entry));
      schedule();
      return;
    }
    skipped++;
    statuses.set(entry.status, (statuses.get(entry.status) ?? 0) + 1);
    if (!timerSet) {
      // The summary must come out even if no request follows in the next second.
      timerSet = true;
      setTimer(
        () => {
          timerSet = false;
          enterSecond(Math.floor(now() / 1000));
          summarise();
        },
        1000 - (now() % 1000) + 1,
      );
    }
  };
}

function droppedLine(format: LogFormat, count: number): string {
  if (format === 'json') return `${JSON.stringify({ level: 'warn', msg: 'log lines dropped', count, why: 'stdout was not being read' })}\n`;
  return `… ${count} log lines dropped: stdout was not being read; GET /__admin/requests lists the latest requests\n`;
}

function summaryLine(format: LogFormat, count: number, statuses: Map<number, number>): string {
  const byStatus = [...statuses].sort(([a], [b]) => a - b);
  if (format === 'json') {
    return `${JSON.stringify({ level: 'info', msg: 'requests not shown', count, statuses: Object.fromEntries(byStatus) })}\n`;
  }
  const counts = byStatus.map(([status, n]) => `${status} ×${n}`).join(', ');
  return `… ${count} more requests in that second not shown (${counts}); GET /__admin/requests lists the latest\n`;
}

/**
 * Control characters written as escapes: a pretty line goes to a terminal, and text that came
 * from a client must not move its cursor or change its colours.
 */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function prettyLine(e: JournalEntry): string {
  const target = e.query ? `${e.path}?${e.query}` : e.path;
  const session = ` session=${e.session}`;
  const key = e.key ? ` key=${e.key}` : '';
  const why = e.status >= 400 || e.reason.startsWith('scenario') ? ` (${e.code ?? ''}${e.code ? ': ' : ''}${e.reason})` : '';
  return `${printable(`${e.at}${e.realAt ? ` (real ${e.realAt})` : ''} ${e.method} ${target} -> ${e.status}${key}${session} ${e.durationMs}ms${why}`)}\n`;
}
