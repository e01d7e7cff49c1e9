import { beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler, type Har } from '../../src/index.js';
import { adminCall, type ErrorJson } from '../support/admin.js';
import { T0, call, post, useMock } from '../support/mock.js';
import { at } from '../support/checked.js';

const { mock, fresh } = useMock({ keys: ['qa-key-123456:free:2:100'] });
beforeEach(fresh);

const header = (entry: Har['log']['entries'][number], side: 'request' | 'response', name: string): string | undefined =>
  entry[side].headers.find((h) => h.name.toLowerCase() === name)?.value;

describe('the journal as an HTTP Archive (HAR 1.2)', () => {
  it('mock.har(): each recorded request with its URL, headers (keys redacted), bodies, status and the reason in words', async () => {
    mock().recordDetails();
    const list = await call(mock(), '/v1/pets?limit=2');
    const created = await call(mock(), '/v1/pets', post({ name: 'Rex', categoryId: 3 }));
    await call(mock(), '/v1/pets?limit=1', { key: 'qa-key-123456' });
    await call(mock(), '/v1/pets?limit=1', { key: 'qa-key-123456' });
    const limited = await call(mock(), '/v1/pets?limit=1', { key: 'qa-key-123456' });
    const har = mock().har();
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('petstore-mock');
    const [get, create, , , refused] = har.log.entries;
    expect(har.log.entries.map((e) => `${e.request.method} ${e.request.url} ${e.response.status} ${e.response.statusText}`)).toEqual([
      `GET ${mock().origin}/v1/pets?limit=2 200 OK`,
      `POST ${mock().origin}/v1/pets 201 Created`,
      `GET ${mock().origin}/v1/pets?limit=1 200 OK`,
      `GET ${mock().origin}/v1/pets?limit=1 200 OK`,
      `GET ${mock().origin}/v1/pets?limit=1 429 Too Many Requests`,
    ]);
    if (!get || !create || !refused) throw new Error('five entries');
    expect(get.startedDateTime).toBe(new Date(T0).toISOString());
    expect(get.request.queryString).toEqual([{ name: 'limit', value: '2' }]);
    expect(header(get, 'request', 'authorization')).toBe('Bearer demo…ree');
    expect(get.response.content).toEqual({ size: list.text.length, mimeType: 'application/json', text: list.text });
    expect(header(get, 'response', 'x-ratelimit-remaining')).toBe(list.headers.get('x-ratelimit-remaining'));
    expect(create.request.postData).toEqual({ mimeType: 'application/json', text: '{"name":"Rex","categoryId":3}' });
    expect(create.response.content.text).toBe(created.text);
    expect(create.response.redirectURL).toBe(created.headers.get('location'));
    expect(refused.response.content.text).toBe(limited.text);
    expect(header(refused, 'response', 'retry-after')).toBe('60');
    expect(refused.comment).toMatch(/^rate_limited: /);
    expect(refused).toMatchObject({ _seq: 5, _session: 'default', _code: 'rate_limited', _key: 'qa-k…456' });
    expect(refused.timings.wait).toBe(refused.time);
    // A filter narrows it, as it narrows the journal.
    expect(
      mock()
        .har({ status: '429' })
        .log.entries.map((e) => e._seq),
    ).toEqual([5]);
  });

  it('requests recorded without details are there, with no headers or bodies and a comment saying how to record them', async () => {
    mock().recordDetails(false);
    await call(mock(), '/v1/pets?limit=2');
    const [entry] = mock().har().log.entries;
    expect(entry?.request.headers).toEqual([]);
    expect(entry?.response.content).toMatchObject({ size: -1, mimeType: 'application/json' });
    expect(entry?.response.content.comment).toMatch(/not recorded.*PUT \/__admin\/journal \{"details": true\}/);
    expect(entry?.response.bodySize).toBe(-1);
  });

  it('GET /__admin/requests?format=har: the same file, with the journal filters, as a download; in the session X-Mock-Session names', async () => {
    mock().recordDetails();
    await call(mock(), '/v1/pets?limit=2');
    await call(mock(), '/v1/pets/999999', { key: 'demo-pro' });
    const res = await adminCall<Har>(mock().origin, 'requests?format=har&status=4xx');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="petstore-mock-default.har"');
    expect(res.json).toEqual(mock().har({ status: '4xx' }));
    expect(res.json.log.entries.map((e) => `${e.request.url} ${e.response.status}`)).toEqual([`${mock().origin}/v1/pets/999999 404`]);
    expect((await adminCall<Har>(mock().origin, 'requests?format=har&limit=1')).json.log.entries.map((e) => e._seq)).toEqual([2]);

    await call(mock(), '/v1/pets?limit=1', { headers: { 'x-mock-session': 'qa:run-7' } });
    const other = await adminCall<Har>(mock().origin, 'requests?format=har', { session: 'qa:run-7' });
    expect(other.headers.get('content-disposition')).toBe('attachment; filename="petstore-mock-qa_run-7.har"');
    expect(other.json.log.entries.map((e) => e._session)).toEqual(['qa:run-7']);
  });

  it('an unknown format is refused, saying which there are', async () => {
    const res = await adminCall<ErrorJson>(mock().origin, 'requests?format=xml');
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('petstore-mock: format takes json (the default) or har (HTTP Archive 1.2).');
  });

  it('a fetch handler gives one too, on http://localhost: it has no origin of its own', async () => {
    const handler = createFetchHandler();
    handler.recordDetails();
    await handler(new Request('http://api.test/v1/pets?limit=1', { headers: { authorization: 'Bearer demo-free' } }));
    const entry = at(handler.har().log.entries, 0);
    expect(entry.request.url).toBe('http://localhost/v1/pets?limit=1');
    expect(entry.response.status).toBe(200);
  });
});
