import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';

const KEY = 'bulk-load-key-0001';
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

/** Reads stdout up to the ready line, then stops reading it: the pipe fills as nobody drains it. */
async function startUndrained(): Promise<{ url: string; origin: string; resumeUntil: (last: RegExp) => Promise<string> }> {
  const child = spawn(process.execPath, ['dist/cli.js', '--port', '0', '--ready-json', '--log-format', 'json', '--key', `${KEY}:enterprise:1000000:10000000`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const stdout = child.stdout;
  if (!stdout) throw new Error('no stdout pipe');
  let text = '';
  const ready = await new Promise<{ url: string; origin: string }>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end === -1) return;
      stdout.off('data', onData);
      stdout.pause();
      resolve(JSON.parse(text.slice(0, end)) as { url: string; origin: string });
    };
    stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`petstore-mock exited with ${code} before its ready line`)));
  });
  let rest = '';
  return {
    ...ready,
    /** Reads again until a line matching `last` has come, and returns what came after the ready line. */
    resumeUntil: (last: RegExp) =>
      new Promise((resolve) => {
        rest = text.slice(text.indexOf('\n') + 1);
        stdout.on('data', (chunk: Buffer) => {
          rest += chunk.toString();
          if (last.test(rest)) resolve(rest);
        });
        stdout.resume();
      }),
  };
}

interface Health {
  log: { droppedLines: number; readerBehind: boolean };
}

async function health(origin: string): Promise<Health> {
  return (await fetch(`${origin}/__admin/health`)).json() as Promise<Health>;
}

describe('the request log with a stdout nobody reads', () => {
  it('keeps answering, drops and counts lines instead of buffering them, and reports the count in health and in the next line', async () => {
    const mock = await startUndrained();
    const statuses = new Map<number, number>();
    const send = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) {
        const res = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${KEY}` } });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    await send(2000);
    expect([...statuses]).toEqual([[200, 2000]]);
    const first = await health(mock.origin);
    // A pipe holds 64 KiB and the stream 16 KiB more; ~300-byte lines: most of 2,000 cannot fit.
    expect(first.log.droppedLines).toBeGreaterThan(1000);
    await send(2000);
    const second = await health(mock.origin);
    expect(second.log.droppedLines).toBeGreaterThan(first.log.droppedLines + 1500);
    expect(second.log.readerBehind).toBe(true);

    // Reading again: once the stream has drained, the next line written says how many were lost.
    const out = mock.resumeUntil(/marker=end/);
    for (let behind = true; behind;) behind = (await health(mock.origin)).log.readerBehind;
    const final = await health(mock.origin);
    await fetch(`${mock.url}/pets?limit=1&marker=end`, { headers: { authorization: `Bearer ${KEY}` } }).then((r) => r.arrayBuffer());
    const lines = (await out)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string; count?: number; query?: string });
    expect(lines.at(-1)?.query).toBe('limit=1&marker=end');
    expect(lines.at(-2)).toEqual({ level: 'warn', msg: 'log lines dropped', count: expect.any(Number), why: 'stdout was not being read' });
    const notices = lines.filter((l) => l.msg === 'log lines dropped');
    expect(notices.reduce((sum, n) => sum + (n.count ?? 0), 0)).toBe(final.log.droppedLines);
    // Every request was written or counted as dropped: none was held back in memory.
    const written = lines.filter((l) => l.msg === 'request').length;
    expect(written + final.log.droppedLines).toBe(4001);
    expect([...statuses]).toEqual([[200, 4000]]);
  }, 120_000);
});
