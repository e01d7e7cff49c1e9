import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/petstore.js';

/** How the client retries a 429: the server's `Retry-After`, never less than exponential backoff. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  maxRetries: number;
  /** The first backoff step in milliseconds; step n waits at least baseMs * 2^n. */
  baseMs: number;
  /** The longest backoff step in milliseconds; a longer `Retry-After` is still honoured. */
  maxMs: number;
  /** Waits; tests pass one that moves the mock's virtual clock instead of real time. */
  sleep: (ms: number) => Promise<void>;
}

/** What the deprecation headers of an answer say (RFC 9745 Deprecation, RFC 8594 Sunset, Link). */
export interface DeprecationNotice {
  deprecatedAt: Date;
  sunset: Date | undefined;
  successor: string | undefined;
  operation: string;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  retry?: Partial<RetryPolicy>;
  /** Called for every answer that carries a Deprecation header. */
  onDeprecated?: (notice: DeprecationNotice) => void;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The wait before retry number `attempt` (0-based) of a 429. */
export function retryDelay(response: Response, attempt: number, policy: Pick<RetryPolicy, 'baseMs' | 'maxMs'>): number {
  const header = response.headers.get('retry-after');
  const seconds = header !== null && /^\d+$/.test(header) ? Number(header) : 0;
  return Math.max(seconds * 1000, Math.min(policy.maxMs, policy.baseMs * 2 ** attempt));
}

/** A fetch that retries 429 answers per the policy; the request is cloned so a body can be sent again. */
export function retryingFetch(policy: RetryPolicy, inner: (request: Request) => Promise<Response> = (r) => fetch(r)): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const response = await inner(request.clone());
      if (response.status !== 429 || attempt >= policy.maxRetries) return response;
      await response.body?.cancel();
      await policy.sleep(retryDelay(response, attempt, policy));
    }
  };
}

/** Parses the deprecation headers of an answer, or undefined when it has none. */
export function deprecationOf(response: Response, operation: string): DeprecationNotice | undefined {
  const deprecation = response.headers.get('deprecation');
  const match = deprecation === null ? null : /^@(-?\d+)$/.exec(deprecation);
  if (!match) return undefined;
  const sunset = response.headers.get('sunset');
  const successor = /<([^>]+)>;\s*rel="successor-version"/.exec(response.headers.get('link') ?? '')?.[1];
  return { deprecatedAt: new Date(Number(match[1]) * 1000), sunset: sunset ? new Date(sunset) : undefined, successor, operation };
}

/** An SDK-style client of the Animal Store API over the generated types. */
export function createPetstoreClient(options: ClientOptions): Client<paths> {
  const policy: RetryPolicy = { maxRetries: 4, baseMs: 500, maxMs: 10 * 60_000, sleep: realSleep, ...options.retry };
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: retryingFetch(policy) });
  const middleware: Middleware = {
    onRequest({ request }) {
      if (options.apiKey !== undefined) request.headers.set('Authorization', `Bearer ${options.apiKey}`);
      return request;
    },
    onResponse({ response, schemaPath, request }) {
      const notice = deprecationOf(response, `${request.method} ${schemaPath}`);
      if (notice) options.onDeprecated?.(notice);
      return response;
    },
  };
  client.use(middleware);
  return client;
}
