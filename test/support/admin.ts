/** An admin answer as tests read it: `json` is what the admin API sent, for each test to narrow. */
export interface AdminReply<T = unknown> {
  status: number;
  headers: Headers;
  json: T;
}

/** How a test calls the admin API: a body is sent as JSON, `session` as `X-Mock-Session`. */
export interface AdminInit {
  method?: string;
  body?: unknown;
  session?: string;
  headers?: Record<string, string>;
}

/**
 * Calls `<origin>/__admin/<path>` the way the admin page does (JSON in, JSON out). A string or
 * byte body is sent as it is, so tests can send broken or compressed JSON.
 */
export async function adminCall<T = unknown>(origin: string, path: string, init: AdminInit = {}): Promise<AdminReply<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
  if (init.session !== undefined) headers['x-mock-session'] = init.session;
  const body = init.body === undefined || typeof init.body === 'string' || init.body instanceof Uint8Array ? init.body : JSON.stringify(init.body);
  const res = await fetch(`${origin}/__admin/${path}`, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: (text ? JSON.parse(text) : undefined) as T };
}

/** The admin API's clock answer. */
export interface ClockJson {
  now: string;
  frozen: boolean;
}

/** The Error body every refusal carries. */
export interface ErrorJson {
  code: string;
  message: string;
  status: number;
}

/** The admin API's answer about a session's scenario. */
export interface ScenarioJson {
  name: string;
  description?: string;
  session?: string;
}

/**
 * The keyIds a running mock gives the keys it was given, in their order (GET /__admin/keys, the
 * public demo keys left out): each mock salts them with its own salt, so a test reads them.
 */
export async function keyIdsOf(origin: string, session?: string): Promise<string[]> {
  const { json } = await adminCall<{ key: string; keyId: string }[]>(origin, 'keys', { session });
  return json.filter((k) => !/^demo-(free|pro|business|enterprise)$/.test(k.key)).map((k) => k.keyId);
}
