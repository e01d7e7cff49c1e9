const { startMock } = require('petstore-mock');

test('lists animals from the mock of globalSetup', async () => {
  const res = await fetch(`${process.env.PETSTORE_URL}/pets?limit=3`, {
    headers: { Authorization: 'Bearer demo-free' },
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toHaveLength(3);
});

describe('a mock of its own, on a virtual clock', () => {
  let mock;
  beforeAll(async () => {
    // A key allowed 3 requests a minute, and a clock frozen at a whole minute.
    mock = await startMock({ keys: ['jest-key:free:3:100'] });
    mock.clock.set('2030-01-01T12:00:00Z');
    mock.clock.freeze();
  });
  afterAll(() => mock.close());

  const list = () => fetch(`${mock.url}/pets?limit=1`, { headers: { Authorization: 'Bearer jest-key' } });

  test('waits out a 429 without waiting a real minute', async () => {
    for (let i = 0; i < 3; i++) expect((await list()).status).toBe(200);
    const limited = await list();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    mock.clock.advance('60s');
    expect((await list()).status).toBe(200);
  });
});
