import { describe, expect, it } from 'vitest';
import { call, useMock } from '../support/mock.js';

// Long list bodies have their Content-Length remembered between answers; it must stay the byte
// length of the body actually sent, also for names outside ASCII and when bodies alternate.
// Sold animals have plain ASCII names, the others do not.
const names = ['Zoë', 'Björk', '小狗', 'Ñandú'];
const statuses = ['available', 'pending', 'sold'] as const;
const pets = Array.from({ length: 60 }, (_, i) => ({
  id: i + 1,
  name: statuses[i % 3] === 'sold' ? `Rex ${i + 1}` : `${names[i % names.length]} ${i + 1}`,
  categoryId: (i % 4) + 1,
  status: statuses[i % 3],
}));
const { call: send, mock } = useMock({ fixtures: pets, keys: ['hot-key:enterprise:100000:1000000'] });

async function lengthMatches(path: string): Promise<number> {
  const res = await fetch(`${mock().origin}${path}`, { headers: { authorization: 'Bearer hot-key' } });
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(res.status).toBe(200);
  expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
  return bytes.length;
}

describe('Content-Length of remembered list bodies', () => {
  it('is the UTF-8 byte length, not the character count, of a long body', async () => {
    const reply = await send('/v1/pets?limit=40', { key: 'hot-key' });
    expect(reply.text.length).toBeGreaterThan(256);
    expect(Buffer.byteLength(reply.text)).toBeGreaterThan(reply.text.length);
    expect(Number(reply.headers.get('content-length'))).toBe(Buffer.byteLength(reply.text));
  });

  it('sends names outside ASCII as UTF-8, intact, and ASCII-only bodies byte for byte', async () => {
    const mixed = await fetch(`${mock().origin}/v1/pets?limit=40`, { headers: { authorization: 'Bearer hot-key' } });
    const mixedBytes = Buffer.from(await mixed.arrayBuffer());
    expect((JSON.parse(mixedBytes.toString('utf8')) as { name: string }[]).map((p) => p.name)).toEqual(pets.slice(0, 40).map((p) => p.name));
    const ascii = await fetch(`${mock().origin}/v1/pets?limit=20&status=sold`, { headers: { authorization: 'Bearer hot-key' } });
    const asciiBytes = Buffer.from(await ascii.arrayBuffer());
    const asciiText = asciiBytes.toString('utf8');
    expect(asciiText.length).toBeGreaterThan(256);
    expect(Buffer.byteLength(asciiText)).toBe(asciiText.length);
    expect(JSON.parse(asciiText)).toEqual(pets.filter((p) => p.status === 'sold'));
    expect(Number(ascii.headers.get('content-length'))).toBe(asciiBytes.length);
  });

  it('follows the body when lists of different lengths alternate', async () => {
    const seen = new Set<number>();
    for (let i = 0; i < 3; i++) {
      for (const path of ['/v1/pets?limit=40', '/v1/pets?limit=41', '/v1/pets?status=sold&limit=20', '/v1/pets?limit=2']) seen.add(await lengthMatches(path));
    }
    expect(seen.size).toBe(4);
  });

  it('changes after a create adds to the list', async () => {
    const before = await lengthMatches('/v1/pets?limit=100');
    const created = await call(mock(), '/v1/pets', {
      key: 'hot-key',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Ørjan","categoryId":2}',
    });
    expect(created.status).toBe(201);
    const after = await lengthMatches('/v1/pets?limit=100');
    expect(after).toBe(before + 1 + Buffer.byteLength(`{"id":61,"name":"Ørjan","categoryId":2}`));
  });
});
