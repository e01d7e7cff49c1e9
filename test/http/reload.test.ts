import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ScenarioError, UserError, startMock, type ReloadReport, type RunningMock } from '../../src/index.js';
import { adminCall, type AdminReply, type ErrorJson } from '../support/admin.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-reset-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mocks: RunningMock[] = [];
afterEach(async () => {
  for (const m of mocks.splice(0)) await m.close();
});
async function start(options: Parameters<typeof startMock>[0]): Promise<RunningMock> {
  const m = await startMock(options);
  mocks.push(m);
  return m;
}

const file = (name: string, after: number, extra = ''): string => {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, `name: ${name}\ndescription: bans after ${after}\nban:\n  after: ${after}\n${extra}`);
  return path;
};

function admin(m: RunningMock, method: string, path: string, body?: unknown): Promise<AdminReply<ErrorJson>> {
  return adminCall<ErrorJson>(m.origin, path, { method, body });
}

describe('reset and switch read the scenario files again', () => {
  it("POST /__admin/reset and the library's reset() apply an edited file", async () => {
    const path = file('edited', 3);
    const m = await start({ scenario: path });
    file('edited', 6);
    expect(m.engine.sessions.defaultSession.settings.ban.after).toBe(3);
    expect((await admin(m, 'POST', 'reset')).status).toBe(200);
    expect(m.engine.sessions.defaultSession.settings.ban.after).toBe(6);
    file('edited', 8);
    m.reset();
    expect(m.engine.sessions.defaultSession.settings.ban.after).toBe(8);
  });

  it('PUT /__admin/scenario by name applies the file as it reads now', async () => {
    const path = file('switched', 3);
    const m = await start({});
    m.session('w').useScenario(path);
    file('switched', 9);
    expect((await admin(m, 'PUT', 'scenario', { name: 'switched' })).status).toBe(200);
    expect(m.engine.sessions.defaultSession.settings.ban.after).toBe(9);
  });

  it('a file with a mistake: reset answers 400 scenario_invalid with file:line:col and the session runs on as it was', async () => {
    const path = file('broken', 3);
    const m = await start({ scenario: path });
    await fetch(`${m.url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } });
    file('broken', 3, '  afer: 4\n');
    const res = await admin(m, 'POST', 'reset');
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('scenario_invalid');
    expect(res.json.message).toBe(`petstore-mock: ${path}:5:3: unknown key "afer" in ban; the keys there are after, duration; fix the file and try again.`);
    expect(m.requests()).toHaveLength(1);
    expect(() => m.reset()).toThrow(ScenarioError);
    expect((await admin(m, 'PUT', 'scenario', { name: 'broken' })).json.code).toBe('scenario_invalid');
  });
});

describe('watch', () => {
  it('reloads on a save and reports it through onReload', async () => {
    const path = file('watched', 3);
    let reported!: (report: ReloadReport) => void;
    const reload = new Promise<ReloadReport>((resolve) => (reported = resolve));
    const m = await start({ scenario: path, watch: true, onReload: (r) => reported(r) });
    file('watched', 5);
    expect(await reload).toEqual({ files: [path], sessions: ['default'], current: [], errors: [] });
    expect(m.engine.sessions.defaultSession.settings.ban.after).toBe(5);
  });

  it('without watch, reload() does the same on demand', async () => {
    const path = file('on-demand', 3);
    const m = await start({ scenario: path });
    file('on-demand', 4);
    expect(m.reload()).toEqual({ files: [path], sessions: ['default'], current: [], errors: [] });
  });
});

describe('startMock on a port in use', () => {
  it('rejects with the same clear message the CLI prints, not a bare EADDRINUSE', async () => {
    const first = await start({});
    const error = await startMock({ port: first.port }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe(
      `petstore-mock: port ${first.port} on 127.0.0.1 is already in use; stop the other server or pass --port 0 (port: 0 to startMock) to take a free port.`,
    );
    expect((error as { code?: string }).code).toBe('EADDRINUSE');
  });
});
