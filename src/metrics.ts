// Counters an operator scrapes from `GET /__admin/metrics` (Prometheus text format): answers by
// status, and on a shared state its failures by kind and the round trip of each Redis call.
import { INSTANCE, uptimeSeconds } from './instance.js';

/** Upper bounds (seconds) of the round-trip histogram's buckets. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** The failure kinds of state-errors.ts, shown at 0 before they happen so every series exists. */
const FAILURE_KINDS = ['timeout', 'disconnected', 'oom', 'readonly', 'moved', 'cluster_down', 'loading', 'primary_down', 'busy', 'auth', 'refused'];

/** What the state engine adds to a scrape, read when it is asked for. */
export interface StateSample {
  engine: 'memory' | 'redis';
  /** Sessions held, the default one included (undefined when the state cannot be asked). */
  sessions?: number;
}

function escape(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** The counters of one mock. */
export class Metrics {
  private readonly statuses = new Map<number, number>();
  private readonly failures = new Map<string, number>(FAILURE_KINDS.map((k) => [k, 0]));
  private readonly buckets = BUCKETS.map(() => 0);
  private trips = 0;
  private tripSeconds = 0;

  /** Counts one answered API request. */
  answered(status: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }

  roundTrip(seconds: number): void {
    this.trips++;
    this.tripSeconds += seconds;
    const index = BUCKETS.findIndex((bound) => seconds <= bound);
    if (index >= 0) this.buckets[index] = (this.buckets[index] ?? 0) + 1;
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
    metric('info', 'gauge', 'The instance that answered this scrape and where its sessions live.', [
      `info{instance="${escape(INSTANCE)}",state="${sample.engine}"} 1`,
    ]);
    metric('uptime_seconds', 'gauge', 'Seconds since the process started.', [`uptime_seconds ${uptimeSeconds()}`]);
    const statuses = [...this.statuses].sort(([a], [b]) => a - b);
    metric(
      'requests_total',
      'counter',
      'API requests answered, by HTTP status.',
      statuses.map(([status, n]) => `requests_total{status="${status}"} ${n}`),
    );
    if (sample.sessions !== undefined) metric('sessions', 'gauge', 'Sessions held, the default one included.', [`sessions ${sample.sessions}`]);
    if (sample.engine === 'redis') {
      metric('state_up', 'gauge', 'Whether the shared state could serve this scrape (1) or not (0).', [`state_up ${sample.sessions === undefined ? 0 : 1}`]);
      metric(
        'state_errors_total',
        'counter',
        'Redis calls that failed, by kind; each answered 503 state_unavailable.',
        [...this.failures].map(([kind, n]) => `state_errors_total{kind="${escape(kind)}"} ${n}`),
      );
      let cumulative = 0;
      const lines = BUCKETS.map((bound, i) => {
        cumulative += this.buckets[i] ?? 0;
        return `redis_roundtrip_seconds_bucket{le="${bound}"} ${cumulative}`;
      });
      lines.push(
        `redis_roundtrip_seconds_bucket{le="+Inf"} ${this.trips}`,
        `redis_roundtrip_seconds_sum ${this.tripSeconds}`,
        `redis_roundtrip_seconds_count ${this.trips}`,
      );
      metric('redis_roundtrip_seconds', 'histogram', 'Round trip of each Redis script call that got an answer.', lines);
    }
    return `${out.join('\n')}\n`;
  }
}

/** Wraps a request callback so that every answer is counted too. */
export function counted<E extends { status: number }>(metrics: Metrics, onRequest: ((entry: E) => void) | undefined): (entry: E) => void {
  if (!onRequest) return (entry) => metrics.answered(entry.status);
  return (entry) => {
    metrics.answered(entry.status);
    onRequest(entry);
  };
}
