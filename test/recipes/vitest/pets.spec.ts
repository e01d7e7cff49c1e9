import { expect, inject, test } from 'vitest';

test('lists animals from the mock', async () => {
  const res = await fetch(`${inject('petstoreUrl')}/pets?limit=3`, {
    headers: { Authorization: 'Bearer demo-free' },
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toHaveLength(3);
});
