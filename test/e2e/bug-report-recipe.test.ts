// docs/snapshots.md's bug-report recipe, its commands run as printed: the session records details,
// a create fails (create-fails-third's 503), the snapshot from before that request and the
// session's HAR are saved, and a mock started from the snapshot answers the failing request
// sent again as it did. And ?before=SEQ itself: a chaos failure replays too; what is not kept is
// refused, saying what is.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { adminCall, type ErrorJson } from '../support/admin.js';
import { ROOT, userProject } from '../recipes/project.js';
import { run, waitFor } from './cli.js';

const doc = readFileSync(join(ROOT, 'docs/snapshots.md'), 'utf8');
const section = doc.slice(doc.indexOf('## A bug report'));
/** The recipe's shell blocks, in order, as printed (indented under their step). */
const blocks = [...section.matchAll(/^ {3}```sh\n([\s\S]*?)^ {3}```$/gm)].map((m) => (m[1] ?? '').replace(/^ {3}/gm, ''));

let source: RunningMock;
let dir: string;
beforeAll(async () => {
  source = await startMock({ port: 0 });
  dir = userProject({});
});
afterAll(async () => {
  await source?.close();
  rmSync(dir, { recursive: true, force: true });
});

const create = (origin: string, session?: string): Promise<Response> =>
  fetch(`${origin}/v1/pets`, {
    method: 'POST',
    headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json', ...(session && { 'x-mock-session': session }) },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });

async function bash(script: string, env: Record<string, string>): Promise<void> {
  const r = run('bash', ['-e', '-c', script], { cwd: dir, env });
  expect(await r.exited, r.stderr()).toBe(0);
}

describe("docs/snapshots.md's bug report, as printed", () => {
  it('the failing create, restored from before it in another process and sent again, answers 503 again', async () => {
    expect(blocks).toHaveLength(3);
    const env = { admin: `${source.origin}/__admin`, S: 'bug-report' };
    await adminCall(source.origin, 'scenario', { method: 'PUT', session: 'bug-report', body: { name: 'create-fails-third' } });
    await bash(blocks[0] ?? '', env);
    expect([(await create(source.origin, 'bug-report')).status, (await create(source.origin, 'bug-report')).status]).toEqual([201, 201]);
    expect((await create(source.origin, 'bug-report')).status).toBe(503);
    const failed = (await adminCall<{ seq: number }[]>(source.origin, 'requests?session=bug-report&status=5xx')).json;
    expect(failed).toHaveLength(1);
    await bash(blocks[1] ?? '', { ...env, SEQ: String(failed[0]?.seq) });
    // The HAR is the named session's: its three creates, the failure last.
    const har = JSON.parse(readFileSync(join(dir, 'requests.har'), 'utf8')) as { log: { entries: { response: { status: number } }[] } };
    expect(har.log.entries.map((e) => e.response.status)).toEqual([201, 201, 503]);
    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { journal: { entries: unknown[] } };
    expect(state.journal.entries).toHaveLength(2);

    const mock = run('bash', ['-e', '-c', `exec ${blocks[2]}`], {
      cwd: dir,
      env: { PETSTORE_MOCK_PORT: '0', PETSTORE_MOCK_READY_JSON: 'true' },
      detached: true,
    });
    try {
      const [line] = await waitFor(mock, /^\{.*\}\n/m);
      const origin = (JSON.parse(line) as { origin: string }).origin;
      expect((await create(origin)).status).toBe(503);
      expect((await create(origin)).status).toBe(201);
    } finally {
      if (mock.child.pid !== undefined) process.kill(-mock.child.pid, 'SIGKILL');
    }
  }, 60_000);
});

describe('GET /__admin/snapshot?before=SEQ', () => {
  it('a chaos failure (flaky) restored from before it fails again the same way', async () => {
    const s = source.session('chaos');
    s.useScenario('flaky');
    s.recordDetails();
    let failedSeq: number | undefined;
    let failedStatus = 0;
    for (let i = 0; i < 60 && failedSeq === undefined; i++) {
      const res = await fetch(`${source.origin}/v1/pets?limit=1`, { headers: { authorization: 'Bearer demo-pro', 'x-mock-session': 'chaos' } }).catch(
        () => undefined,
      );
      const last = s.requests().at(-1);
      if (last !== undefined && (res === undefined || res.status >= 500)) {
        failedSeq = last.seq;
        failedStatus = last.status;
      }
    }
    expect(failedSeq).toBeDefined();
    const before = await adminCall(source.origin, `snapshot?session=chaos&before=${failedSeq}`);
    expect(before.status).toBe(200);
    expect((await adminCall(source.origin, 'snapshot', { method: 'PUT', session: 'chaos-replay', body: before.json })).status).toBe(200);
    await fetch(`${source.origin}/v1/pets?limit=1`, { headers: { authorization: 'Bearer demo-pro', 'x-mock-session': 'chaos-replay' } }).catch(() => undefined);
    expect(source.session('chaos-replay').requests().at(-1)).toMatchObject({ seq: failedSeq, status: failedStatus });
  });

  it('what was not kept is refused, saying what is kept and how to keep it', async () => {
    await fetch(`${source.origin}/v1/pets?limit=1`, { headers: { authorization: 'Bearer demo-pro', 'x-mock-session': 'not-recording' } });
    const reply = await adminCall<ErrorJson>(source.origin, 'snapshot?session=not-recording&before=1');
    expect(reply.status).toBe(400);
    expect(reply.json.message).toBe(
      'petstore-mock: no snapshot from before request 1 of session "not-recording" (none is kept for it yet): the state before each request is kept while the session records details (PUT /__admin/journal {"details": true}, before the requests), for its latest 32 requests.',
    );
    expect((await adminCall<ErrorJson>(source.origin, 'snapshot?before=x')).status).toBe(400);
    // A restore gives the session another history: what it kept before is gone.
    const s = source.session('restored-over');
    s.recordDetails();
    await fetch(`${source.origin}/v1/pets?limit=1`, { headers: { authorization: 'Bearer demo-pro', 'x-mock-session': 'restored-over' } });
    expect((await adminCall(source.origin, 'snapshot?session=restored-over&before=1')).status).toBe(200);
    s.restore(source.session('chaos').snapshot());
    expect((await adminCall(source.origin, 'snapshot?session=restored-over&before=1')).status).toBe(400);
  });
});
