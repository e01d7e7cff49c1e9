import { expect, test } from '@playwright/test';

test('the API answers with the demo key', async ({ request }) => {
  const res = await request.get('/v1/pets?limit=3', { headers: { Authorization: 'Bearer demo-free' } });
  expect(res.status()).toBe(200);
  expect(await res.json()).toHaveLength(3);
});

test('the admin page shows the request journal', async ({ page, request }) => {
  await request.get('/v1/pets?limit=1', { headers: { Authorization: 'Bearer demo-free' } });
  await page.goto('/__admin/');
  await expect(page.locator('#requests')).toContainText('/v1/pets?limit=1');
});
