const { ownSession } = require('./session.js');

let own;
beforeAll(async () => {
  own = await ownSession();
});

test('creates an animal in its own session and finds it in the journal', async () => {
  await own.session.useScenario('empty-store');
  const created = await own.api('/pets', { method: 'POST', body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
  expect(created.status).toBe(201);
  expect(await (await own.api('/pets')).json()).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
  await own.session.verify({ method: 'POST', path: '/v1/pets' }, 1);
  await own.session.expectWellBehaved();
});
