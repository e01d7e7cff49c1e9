const { ownSession } = require('./session.js');

let own;
beforeAll(async () => {
  own = await ownSession();
});

test('waits out a 429 on its own clock, whatever the other workers do', async () => {
  await own.session.useScenario('rate-limit-minute');
  const limited = await own.api('/pets?limit=1');
  expect(limited.status).toBe(429);
  await own.session.clock.advance(`${limited.headers.get('retry-after')}s`);
  expect((await own.api('/pets?limit=1')).status).toBe(200);
});
