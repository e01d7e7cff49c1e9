// Load across replicas while a Redis failover happens: every answer must be a 201 or a 503
// `state_unavailable` with Retry-After (never a 500, never another refusal), and the ids handed
// out must never repeat.
import { Agent, request } from 'node:http';
import type { SharedRunningMock } from '../../src/index.js';

/** What the load saw. */
export interface LoadReport {
  ids: number[];
  unavailable: number;
  /** Answers that were neither a 201 nor a proper 503, with their bodies. */
  wrong: string[];
  /** Creates answered 201 after `during` finished. */
  after: number;
  /** The message of the last 503, to tell why when the load never recovers. */
  lastUnavailable: string;
  /** X-RateLimit-Remaining of the last 201. */
  lastRemaining: number;
}

function create(origin: string, key: string, agent: Agent): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve) => {
    const req = request(
      `${origin}/v1/pets`,
      { method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', (error) => resolve({ status: 0, body: String(error), headers: {} }));
    req.end('{"name":"Load","categoryId":1}');
  });
}

/**
 * Runs `workers` loops of creates spread over the replicas while `during` runs, then until
 * `afterCount` creates have been answered 201 after it (or 20 s pass).
 */
export async function loadDuring(mocks: SharedRunningMock[], key: string, during: () => Promise<void>, workers = 6, afterCount = 30): Promise<LoadReport> {
  // Idle sockets are dropped after 4 s, before the mock's 5 s keep-alive timeout closes them: a
  // create sent on a socket the server is closing that instant gets "socket hang up" (seen once in
  // a full run), the race every keep-alive client must stay clear of, not the mock's answer.
  const agent = new Agent({ keepAlive: true, maxSockets: workers * 2, timeout: 4000 });
  const report: LoadReport = { ids: [], unavailable: 0, wrong: [], after: 0, lastRemaining: Number.NaN, lastUnavailable: '' };
  let phase: 'during' | 'after' | 'stop' = 'during';
  const deadline = { at: Infinity };
  const loop = async (worker: number): Promise<void> => {
    for (let i = worker; phase !== 'stop'; i++) {
      const mock = mocks[i % mocks.length] as SharedRunningMock;
      const wasAfter = phase === 'after';
      const res = await create(mock.origin, key, agent);
      if (res.status === 201) {
        report.ids.push((JSON.parse(res.body) as { id: number }).id);
        report.lastRemaining = Number(res.headers['x-ratelimit-remaining']);
        if (wasAfter && ++report.after >= afterCount) phase = 'stop';
      } else if (res.status === 503 && res.headers['retry-after'] === '1' && (JSON.parse(res.body) as { code?: string }).code === 'state_unavailable') {
        report.unavailable++;
        report.lastUnavailable = (JSON.parse(res.body) as { message: string }).message;
        await new Promise((resolve) => setTimeout(resolve, 20));
      } else {
        report.wrong.push(`${res.status} ${res.body.slice(0, 300)}`);
      }
      if (Date.now() > deadline.at) phase = 'stop';
    }
  };
  const loops = Array.from({ length: workers }, (_, w) => loop(w));
  try {
    await during();
  } finally {
    if (phase === 'during') phase = 'after';
    deadline.at = Date.now() + 20_000;
  }
  await Promise.all(loops);
  agent.destroy();
  return report;
}

/**
 * Waits until a replica's health says its shared state is reachable again. After a failover the
 * load's last 201s may all have come from one replica while another was between two connection
 * attempts: a test asks each replica once it is connected, not at a moment that happens to follow.
 */
export async function untilReachable(mock: SharedRunningMock): Promise<void> {
  const reachable = async (): Promise<boolean> =>
    ((await (await fetch(`${mock.origin}/__admin/health`)).json()) as { state: { reachable: boolean } }).state.reachable;
  while (!(await reachable())) await new Promise((resolve) => setTimeout(resolve, 50));
}
