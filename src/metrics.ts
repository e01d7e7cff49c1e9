// What an operator scrapes from `GET /__admin/metrics` (Prometheus text format 0.0.4): API answers
// by status, code and plan, their durations, bans started, the process, and on a shared state its
// failures by kind and each Redis call's round trip. docs/inspection.md#metrics shows the queries.
//
// Counting runs on every API answer, so it builds no string and no object: each (status, code)
// pair is a row found in a map by a string the answer already holds, each plan a column, and
// the counts live in flat arrays. Every series an answer of the pipeline can have is shown at 0
// from the start, so that `increase()` sees the first event of each.
import { ERROR_CATALOGUE } from './core/errors.js';
import type { PlanName } from './core/types.js';
import { API_CODES, DURATION_BUCKETS, FAILURE_KINDS, KEYED, KEYLESS, PLAN_COLUMN, PLANS, ROUNDTRIP_BUCKETS, SUCCESS_STATUSES } from './metrics-series.js';
import { processMetrics } from './process-metrics.js';

declare const __PETSTORE_VERSION__: string;

/** What the state engine adds to a scrape, read when it is asked for. */
export interface StateSample {
  engine: 'memory' | 'redis';
  /** Sessions held, the default one included (undefined when the state cannot be asked). */
  sessions?: number;
  /**
   * Shared state: whether this replica is the one of its deployment that shows the deployment's
   * gauges (the first live replica id), so that `sum()` over replicas counts them once.
   */
  reportsDeployment?: boolean;
}

function escape(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** Histogram lines: cumulative buckets, `+Inf`, sum and count. `counts` has one more slot than `bounds`: the overflow. */
function histogram(name: string, bounds: readonly number[], counts: readonly number[], sum: number): string[] {
  let cumulative = 0;
  const lines = bounds.map((bound, i) => {
    cumulative += counts[i] ?? 0;
    return `${name}_bucket{le="${bound}"} ${cumulative}`;
  });
  cumulative += counts[bounds.length] ?? 0;
  lines.push(`${name}_bucket{le="+Inf"} ${cumulative}`, `${name}_sum ${sum}`, `${name}_count ${cumulative}`);
  return lines;
}

/** The slot of a histogram's bucket for a value: the first bound it does not exceed, or the overflow. */
function bucketOf(bounds: readonly number[], value: number): number {
  let i = 0;
  while (i < bounds.length && value > (bounds[i] as number)) i++;
  return i;
}

/** The counters of one mock. */
export class Metrics {
  /** Per row: its labels before the plan, and its status (a forced answer may give a code another status). */
  private readonly rowLabels: string[] = [];
  private readonly rowStatus: number[] = [];
  /** Per cell (row × plan): the count, and whether it is shown (pre-shown at 0, or counted). */
  private readonly counts: number[] = [];
  private readonly shown: boolean[] = [];
  private readonly successRow = new Map<number, number>();
  private readonly codeRow = new Map<string, number>();
  private readonly otherRow = new Map<string, number>();
  private readonly durations = DURATION_BUCKETS.map(() => 0).concat(0);
  private durationSum = 0;
  private readonly bans = PLANS.map(() => 0);
  private readonly failures = new Map<string, number>(FAILURE_KINDS.map((k) => [k, 0]));
  private readonly trips = ROUNDTRIP_BUCKETS.map(() => 0).concat(0);
  private tripSeconds = 0;

  constructor() {
    for (const status of SUCCESS_STATUSES)
      this.successRow.set(
        status,
        this.addRow(status, '', () => true),
      );
    for (const code of API_CODES) {
      const plans = KEYLESS.has(code) ? (p: number) => p === 0 : KEYED.has(code) ? (p: number) => p > 0 : () => true;
      this.codeRow.set(code, this.addRow(ERROR_CATALOGUE[code].status, code, plans));
    }
  }

  private addRow(status: number, code: string, shownFor: (plan: number) => boolean): number {
    const row = this.rowStatus.length;
    this.rowStatus.push(status);
    this.rowLabels.push(`status="${status}",code="${escape(code)}"`);
    for (let plan = 0; plan < PLANS.length; plan++) {
      this.counts.push(0);
      this.shown.push(shownFor(plan));
    }
    return row;
  }

  /**
   * Counts one API answer: its status, error code, the plan of its valid key (none without one),
   * its duration in seconds, and whether it started a ban.
   */
  answered(status: number, code: string | undefined, plan: PlanName | undefined, seconds: number, banStarted: boolean): void {
    const column = plan === undefined ? 0 : (PLAN_COLUMN[plan] ?? 0);
    let row = code === undefined ? this.successRow.get(status) : this.codeRow.get(code);
    if (row === undefined || this.rowStatus[row] !== status) row = this.rareRow(status, code);
    const cell = row * PLANS.length + column;
    this.counts[cell] = (this.counts[cell] as number) + 1;
    this.shown[cell] = true;
    const slot = bucketOf(DURATION_BUCKETS, seconds);
    this.durations[slot] = (this.durations[slot] as number) + 1;
    this.durationSum += seconds;
    if (banStarted) this.bans[column] = (this.bans[column] as number) + 1;
  }

  /** A pair no row was made for ahead (a scenario's forced answer with a status of its own): made on its first answer. */
  private rareRow(status: number, code: string | undefined): number {
    const key = `${status} ${code ?? ''}`;
    let row = this.otherRow.get(key);
    if (row === undefined) {
      row = this.addRow(status, code ?? '', () => false);
      this.otherRow.set(key, row);
    }
    return row;
  }

  roundTrip(seconds: number): void {
    const slot = bucketOf(ROUNDTRIP_BUCKETS, seconds);
    this.trips[slot] = (this.trips[slot] as number) + 1;
    this.tripSeconds += seconds;
  }

  failure(kind: string): void {
    this.failures.set(kind, (this.failures.get(kind) ?? 0) + 1);
  }

  /** The scrape: Prometheus text exposition format 0.0.4. */
  render(sample: StateSample): string {
    const out: string[] = [];
    const metric = (name: string, type: string, help: string, lines: string[]): void => {
      out.push(`# HELP petstore_mock_${name} ${help}`, `# TYPE petstore_mock_${name} ${type}`, ...lines.map((l) => `petstore_mock_${l}`));
    };
    const version = typeof __PETSTORE_VERSION__ === 'string' ? __PETSTORE_VERSION__ : '0.0.0';
    metric('build_info', 'gauge', 'Always 1: the version of petstore-mock and Node.js, and where sessions live (memory or redis).', [
      `build_info{version="${escape(version)}",node_version="${process.version}",state="${sample.engine}"} 1`,
    ]);
    const requests: string[] = [];
    for (let row = 0; row < this.rowStatus.length; row++) {
      for (let plan = 0; plan < PLANS.length; plan++) {
        const cell = row * PLANS.length + plan;
        if (this.shown[cell]) requests.push(`requests_total{${this.rowLabels[row] as string},plan="${PLANS[plan] as string}"} ${this.counts[cell] as number}`);
      }
    }
    metric(
      'requests_total',
      'counter',
      'API requests answered, by HTTP status, error code ("" for none) and the plan of the key ("none" without a valid key).',
      requests,
    );
    metric(
      'request_duration_seconds',
      'histogram',
      "Time the mock took to answer an API request, a scenario's latency included, in seconds.",
      histogram('request_duration_seconds', DURATION_BUCKETS, this.durations, this.durationSum),
    );
    metric(
      'bans_total',
      'counter',
      'Temporary bans started, by the plan of the banned key.',
      PLANS.slice(1).map((plan, i) => `bans_total{plan="${plan}"} ${this.bans[i + 1] as number}`),
    );
    if (sample.engine === 'memory' && sample.sessions !== undefined)
      metric('sessions', 'gauge', 'Sessions this process holds, the default one included.', [`sessions ${sample.sessions}`]);
    if (sample.engine === 'redis') {
      // One replica shows the deployment's number; the others show the family without a sample
      // rather than 0, so that during a hand-over a dashboard has a gap, not a false 0 (docs/inspection.md#metrics).
      if (sample.sessions !== undefined)
        metric(
          'deployment_sessions',
          'gauge',
          "Sessions of the whole deployment in Redis, the default one included; shown by one replica only (the first live replica id), so sum() over replicas is the deployment's count.",
          sample.reportsDeployment === true ? [`deployment_sessions ${sample.sessions}`] : [],
        );
      metric('state_up', 'gauge', 'Whether the shared state could serve this scrape (1) or not (0).', [`state_up ${sample.sessions === undefined ? 0 : 1}`]);
      metric(
        'state_errors_total',
        'counter',
        'Redis calls that failed, by kind; each answered 503 state_unavailable.',
        [...this.failures].map(([kind, n]) => `state_errors_total{kind="${escape(kind)}"} ${n}`),
      );
      metric(
        'redis_roundtrip_seconds',
        'histogram',
        'Round trip of each Redis script call that got an answer, in seconds.',
        histogram('redis_roundtrip_seconds', ROUNDTRIP_BUCKETS, this.trips, this.tripSeconds),
      );
    }
    out.push(...processMetrics());
    return `${out.join('\n')}\n`;
  }
}

/** What the pipeline tells of each answer besides its journal entry. */
export type AnswerListener<E> = (entry: E, plan?: PlanName, banStarted?: boolean) => void;

/** Wraps a request callback so that every answer is counted too. */
export function counted<E extends { status: number; code?: string; durationMs: number; delayMs?: number }>(
  metrics: Metrics,
  onRequest: ((entry: E) => void) | undefined,
): AnswerListener<E> {
  return (entry, plan, banStarted = false) => {
    metrics.answered(entry.status, entry.code, plan, (entry.durationMs + (entry.delayMs ?? 0)) / 1000, banStarted);
    onRequest?.(entry);
  };
}
