import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { SessionRegistry } from '../../src/core/state/sessions.js';
import { prepareDefaults } from '../../src/files/defaults-data.js';
import { reloadSessions, watchFiles } from '../../src/files/live-reload.js';
import { ScenarioCatalogue } from '../../src/files/scenario-catalogue.js';
import { T0 } from '../support/mock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-reload-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const scenario = (after: number, extra = ''): string => `name: my-ban\ndescription: bans after ${after}\nban:\n  after: ${after}\n${extra}`;
const pets = (...names: string[]): string => JSON.stringify(names.map((name, i) => ({ id: i + 1, name, categoryId: 1 })));

/** A server's catalogue and sessions, as startMock assembles them, without a socket. */
function server(options: { scenario?: string; fixtures?: string }) {
  const catalogue = new ScenarioCatalogue(prepareDefaults({ fixtures: options.fixtures }));
  const start = options.scenario ? catalogue.settings(options.scenario) : catalogue.startSettings();
  const sessions = new SessionRegistry(start, () => T0);
  return { catalogue, sessions, reload: () => reloadSessions(catalogue, sessions) };
}

describe('reloading files (--watch, reload())', () => {
  it('restarts the sessions of a changed scenario file in its new version and leaves the others running', () => {
    const file = join(dir, 'my.yaml');
    writeFileSync(file, scenario(3));
    const { sessions, catalogue, reload } = server({ scenario: file });
    const worker = sessions.resolve('worker-1');
    const other = sessions.resolve('other');
    other.apply(catalogue.settings('slow'));
    const kept = other.store.create({ name: 'Kept', categoryId: 1 });
    worker.clock.advance(5_000);
    expect(reload()).toBeUndefined();

    writeFileSync(file, scenario(7));
    const report = reload();
    expect(report).toEqual({ files: [file], sessions: ['default', 'worker-1'], current: [], errors: [] });
    expect(sessions.defaultSession.settings.ban.after).toBe(7);
    expect(worker.settings.ban.after).toBe(7);
    expect(worker.clock.now()).toBe(T0);
    expect(other.settings.scenario).toBe('slow');
    expect(other.store.get(kept.id)?.name).toBe('Kept');
    // Sessions made after the reload start in the new version too.
    expect(sessions.resolve('later').settings.ban.after).toBe(7);
  });

  it('a file saved again with the same text reloads nothing', () => {
    const file = join(dir, 'my.yaml');
    writeFileSync(file, scenario(3));
    const { sessions, reload } = server({ scenario: file });
    const before = sessions.defaultSession.settings;
    writeFileSync(file, scenario(3));
    expect(reload()).toBeUndefined();
    expect(sessions.defaultSession.settings).toBe(before);
  });

  it('a file with a mistake keeps the old version running and reports file:line:col; the fix reloads', () => {
    const file = join(dir, 'my.yaml');
    writeFileSync(file, scenario(3));
    const { sessions, reload } = server({ scenario: file });
    const before = sessions.defaultSession.settings;
    writeFileSync(file, scenario(3, '  afer: 4\n'));
    const broken = reload();
    expect(broken?.sessions).toEqual([]);
    expect(broken?.errors).toHaveLength(1);
    expect(broken?.errors[0]).toBeInstanceOf(UserError);
    expect(broken?.errors[0]?.message).toBe(
      `petstore-mock: ${file}:5:3: unknown key "afer" in ban; the keys there are after, duration; fix the file and try again.`,
    );
    expect(sessions.defaultSession.settings).toBe(before);
    expect(sessions.resolve('new-one').settings).toBe(before);

    writeFileSync(file, scenario(4));
    expect(reload()).toEqual({ files: [file], sessions: ['default', 'new-one'], current: [], errors: [] });
    expect(sessions.defaultSession.settings.ban.after).toBe(4);
  });

  it('a fix that brings back the running version restarts nothing and says which sessions already run it', () => {
    const file = join(dir, 'my.yaml');
    writeFileSync(file, scenario(3));
    const { sessions, catalogue, reload } = server({ scenario: file });
    const before = sessions.defaultSession.settings;
    sessions.resolve('other').apply(catalogue.settings('slow'));
    writeFileSync(file, scenario(3, '  afer: 4\n'));
    expect(reload()?.errors).toHaveLength(1);
    writeFileSync(file, scenario(3));
    expect(reload()).toEqual({ files: [file], sessions: [], current: ['default'], errors: [] });
    expect(sessions.defaultSession.settings).toBe(before);
  });

  it('a changed --fixtures file restarts the sessions with the new animals', () => {
    const file = join(dir, 'db.json');
    writeFileSync(file, pets('Rex', 'Bella'));
    const { sessions, reload } = server({ fixtures: file });
    expect(sessions.defaultSession.store.get(2)?.name).toBe('Bella');
    writeFileSync(file, pets('Rex', 'Luna', 'Milo'));
    expect(reload()).toMatchObject({ files: [file], sessions: ['default'], errors: [] });
    expect(sessions.defaultSession.store.get(2)?.name).toBe('Luna');
    expect(sessions.defaultSession.store.get(3)?.name).toBe('Milo');

    writeFileSync(file, '[{"id": "x"}');
    const broken = reload();
    expect(broken?.errors[0]?.message).toMatch(/^petstore-mock: .*db\.json is not valid JSON/);
    expect(sessions.defaultSession.store.get(3)?.name).toBe('Milo');
  });

  it('the fixtures a scenario file names are watched and reloaded with it', () => {
    const file = join(dir, 'my.yaml');
    writeFileSync(join(dir, 'animals.json'), pets('Rex'));
    writeFileSync(file, 'name: mine\ndescription: own animals\ndata:\n  fixtures: animals.json\n');
    const { sessions, catalogue, reload } = server({ scenario: file });
    expect(catalogue.watchedFiles()).toEqual([file, join(dir, 'animals.json')]);
    writeFileSync(join(dir, 'animals.json'), pets('Rex', 'Nala'));
    expect(reload()).toMatchObject({ files: [join(dir, 'animals.json')], sessions: ['default'] });
    expect(sessions.defaultSession.store.get(2)?.name).toBe('Nala');
  });
});

describe('watching files', () => {
  it('calls back once the file is saved (by writing or by renaming over it)', async () => {
    const file = join(dir, 'my.yaml');
    writeFileSync(file, scenario(3));
    let changed!: () => void;
    let saved = new Promise<void>((resolve) => (changed = resolve));
    const watch = watchFiles(
      () => [file],
      () => changed(),
      10,
    );
    try {
      writeFileSync(file, scenario(4));
      await saved;
      saved = new Promise<void>((resolve) => (changed = resolve));
      writeFileSync(`${file}.tmp`, scenario(5));
      const { renameSync } = await import('node:fs');
      renameSync(`${file}.tmp`, file);
      await saved;
    } finally {
      watch.close();
    }
  });
});
