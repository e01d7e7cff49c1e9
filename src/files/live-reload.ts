import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import type { SessionRegistry } from '../core/state/sessions.js';
import type { SessionState, SessionSettings } from '../core/state/session-state.js';
import type { ScenarioCatalogue } from './scenario-catalogue.js';
import { displayPath } from './display-path.js';
import { prefetch, withPrefetched } from './read-file.js';

/** What one reload did: the files that changed, the sessions restarted, the mistakes found. */
export interface ReloadReport {
  /** The changed files, as messages show paths. */
  files: string[];
  /** The ids of the sessions restarted in the new version. */
  sessions: string[];
  /**
   * The ids of the sessions that use a changed file but already run what it now says (a save
   * that undid an edit, or fixed a mistake back to the running version): nothing to restart.
   */
  current: string[];
  /** Files with a mistake; the sessions that use them keep the version they had. */
  errors: UserError[];
}

/**
 * Re-reads the files a server was started from (`--fixtures`, scenario files and their fixtures)
 * and restarts every session whose scenario changed in the new version; a session whose file
 * has a mistake keeps running as it was. Returns undefined when no file's text changed.
 */
export function reloadSessions(catalogue: ScenarioCatalogue, sessions: SessionRegistry): ReloadReport | undefined {
  const files = catalogue.changedFiles();
  if (files.length === 0) return undefined;
  const latest = new Map<string, SessionSettings | UserError>();
  const versionOf = (name: string): SessionSettings | UserError => {
    let found = latest.get(name);
    if (found === undefined) {
      try {
        found = catalogue.latest(name);
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        found = error;
      }
      latest.set(name, found);
    }
    return found;
  };
  const restarted: SessionState[] = [];
  const current: SessionState[] = [];
  for (const state of sessions.all()) {
    // A scenario sent as an object, or a restored snapshot, is read from no file.
    if (state.settings.inline === true) continue;
    const next = versionOf(state.settings.scenario);
    if (next instanceof UserError) continue;
    if (next === state.settings) {
      if (catalogue.filesOf(state.settings.scenario).some((file) => files.includes(file))) current.push(state);
      continue;
    }
    state.apply(next);
    restarted.push(state);
  }
  const start = versionOf(sessions.startSettings().scenario);
  if (!(start instanceof UserError)) sessions.setStartSettings(start);
  const errors = [...new Map([...latest.values()].filter((v): v is UserError => v instanceof UserError).map((e) => [e.message, e])).values()];
  return { files: files.map(displayPath), sessions: restarted.map((w) => w.id), current: current.map((w) => w.id), errors };
}

/** A running watch over some files; `sync` picks up files added since, `close` stops it. */
export interface FileWatch {
  sync(): void;
  close(): void;
}

/**
 * Calls `onChange` shortly after any of `files()` is written, renamed or removed. Folders are
 * watched rather than files, as editors save by writing a new file and renaming it over the
 * old one, which a watch on the old file would miss. Events within `settleMs` are taken as one
 * save. The watch keeps no process alive.
 */
export function watchFiles(files: () => readonly string[], onChange: () => void, settleMs = 60): FileWatch {
  const watchers = new Map<string, FSWatcher>();
  let names = new Map<string, Set<string>>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const fire = (): void => {
    timer = undefined;
    if (closed) return;
    // Read ahead without blocking; the reload then reads them from memory.
    void prefetch(files()).then((texts) => {
      if (closed) return;
      withPrefetched(texts, onChange);
      sync();
    });
  };
  const sync = (): void => {
    if (closed) return;
    names = new Map();
    for (const file of files()) {
      const full = resolve(file);
      const dir = dirname(full);
      const set = names.get(dir) ?? new Set<string>();
      set.add(basename(full));
      names.set(dir, set);
    }
    for (const [dir, watcher] of watchers) {
      if (!names.has(dir)) {
        watcher.close();
        watchers.delete(dir);
      }
    }
    for (const dir of names.keys()) {
      if (watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, { persistent: false }, (_event, name) => {
          if (name !== null && !names.get(dir)?.has(String(name))) return;
          if (timer) clearTimeout(timer);
          timer = setTimeout(fire, settleMs);
          timer.unref();
        });
        // A folder that goes away ends its watch; the next sync starts it again if it returns.
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(dir);
        });
        watchers.set(dir, watcher);
      } catch {
        // A folder that does not exist (yet) is tried again at the next sync.
      }
    }
  };
  sync();
  return {
    sync,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
