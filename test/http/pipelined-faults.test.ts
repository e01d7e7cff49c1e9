// A `reset` or `empty` fault on a pipelined request comes after the answers owed to the requests
// before it: those are delivered whole, as the journal records them, before the connection goes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';

const SCENARIO = `description: a fault on one animal
steps:
  - match: { operation: getPet, headers: { x-fault: reset } }
    answer: { fault: reset }
    times: forever
chaos:
  seed: 1
  match: { operation: getPet, headers: { x-fault: empty } }
  answers: [{ probability: 1, answer: { fault: empty } }]
`;

let mock: RunningMock;
beforeAll(async () => {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-pipelined-faults-'));
  writeFileSync(join(folder, 'faults.yaml'), SCENARIO);
  mock = await startMock({ port: 0, scenario: join(folder, 'faults.yaml') });
});
afterAll(async () => {
  await mock.close();
});

/** Sends the requests in one write and collects every byte until the connection ends, reset or not. */
function pipelined(requests: [path: string, fault?: string][]): Promise<{ text: string; error?: string }> {
  const { hostname, port } = new URL(mock.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code;
    });
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('latin1'), error }));
    socket.write(
      requests
        .map(([path, fault]) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-pro\r\n${fault ? `X-Fault: ${fault}\r\n` : ''}\r\n`)
        .join(''),
    );
  });
}

describe('a connection fault behind a pipelined request', () => {
  it.each(['reset', 'empty'])('(%s) comes after the answer owed to the request before it', async (fault) => {
    const { text } = await pipelined([['/v1/pets?limit=1'], ['/v1/pets/1', fault]]);
    const answers = text.split('HTTP/1.1 ').slice(1);
    expect(answers).toHaveLength(1);
    expect(answers[0]?.startsWith('200 OK\r\n')).toBe(true);
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    expect(Buffer.byteLength(body, 'latin1')).toBe(Number(/content-length: (\d+)/i.exec(text)?.[1]));
    expect(JSON.parse(body)).toHaveLength(1);
  });
});
