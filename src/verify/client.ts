// The only way verify talks to a service: it counts every request against the budget, keeps every
// exchange (with the key replaced) for the rules that judge all answers, and stops sending at a
// 429 unless told to wait, so that verifying a real service never earns its key a ban.
import { MAX_ANSWER_BYTES, readAnswer } from './read-answer.js';
import type { OperationId } from '../core/types.js';
import { shapeProblem } from './shape.js';
import { Secrets } from './secrets.js';
import type { Exchange, VerifyOptions } from './types.js';

/** Who the request says it is: the key, no Authorization at all, or a key no service issued. */
export type Auth = 'key' | 'none' | 'wrong';

/** A key no deployment should accept; printed as it is, unlike the real one. */
const WRONG_KEY = 'petstore-mock-verify-not-a-key';

export interface Request {
  operation: OperationId;
  method: 'GET' | 'POST';
  /** Path and query below the base URL: `/pets?limit=0`. */
  path: string;
  auth: Auth;
  body?: string;
  /** Return a 429 as it is instead of stopping or waiting (the rate-limit rules want it). */
  accept429?: boolean;
}

/** An exchange as the rules see it: what it was for, and the answer parsed once. */
export interface Logged {
  exchange: Exchange;
  /** The answer's JSON body, or undefined when it had none or it did not parse. */
  json: unknown;
  /** The service's time when it answered: its Date header, else this machine's clock. */
  at: number;
  /** True when the body went on past MAX_ANSWER_BYTES: verify read no further and judged no JSON. */
  cut: boolean;
  /**
   * What is wrong with the body by the document (an Error for a 4xx or 5xx but 429, the
   * operation's schema for a 2xx), judged once on arrival; undefined when nothing is.
   */
  shape: string | undefined;
  /** The request as the script made it (no key in it): what `--compare-mock` sends the mock. */
  request: Request;
  /** Milliseconds from sending to the whole answer read (a profile's latency). */
  ms: number;
  /** What `--compare-mock` compares of the body, kept when the body is not. */
  seen: Seen;
}

/** The parts of an answer's body a comparison needs: the error code, a list's ids, a created animal. */
export interface Seen {
  code?: string;
  ids?: string[];
  pet?: { id?: string; name?: unknown; categoryId?: unknown; status?: unknown };
}

/** The Authorization and Content-Type of a request (to the deployment, or to the mock it is compared with). */
export function requestHeaders(request: Pick<Request, 'auth' | 'body'>, key: string): Record<string, string> {
  return {
    ...(request.auth !== 'none' && { authorization: `Bearer ${request.auth === 'key' ? key : WRONG_KEY}` }),
    ...(request.body !== undefined && { 'content-type': 'application/json' }),
  };
}

/** A body's JSON, or undefined when it is empty or does not parse. */
export function jsonOf(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** What a comparison keeps of an answer's JSON body. */
export function seenOf(json: unknown): Seen {
  if (Array.isArray(json)) return { ids: json.map((p: unknown) => (typeof p === 'object' && p !== null ? String((p as { id?: unknown }).id) : '?')) };
  if (typeof json !== 'object' || json === null) return {};
  const body = json as Record<string, unknown>;
  const seen: Seen = {};
  if (typeof body.code === 'string') seen.code = body.code;
  if ('name' in body || 'id' in body)
    seen.pet = { id: body.id === undefined ? undefined : String(body.id), name: body.name, categoryId: body.categoryId, status: body.status };
  return seen;
}

/** The budget of requests is spent: the rule that needed one more is skipped. */
export class BudgetSpent extends Error {
  override name = 'BudgetSpent';
}

/** The run must stop sending (a 429 not to be waited for); the rules not reached are skipped. */
export class StopSending extends Error {
  override name = 'StopSending';

  constructor(
    message: string,
    /** The reason in a few words, for the rules that were not reached. */
    readonly short: string,
  ) {
    super(message);
  }
}

const MARGIN_MS = 250;

/** Waits `seconds` of real time, a little more and never less. */
function realWait(seconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000 + MARGIN_MS));
}

/** The whole seconds of a Retry-After header, or undefined when it is absent or not a number of seconds. */
export function retryAfterOf(exchange: Exchange): number | undefined {
  const value = exchange.response?.headers['retry-after'];
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

export class Client {
  readonly log: Logged[] = [];
  sent = 0;
  readonly max: number;
  readonly maxWait: number;
  /** Waits a Retry-After as told (the rate-limit rules call it too). */
  readonly wait: (seconds: number) => Promise<void>;
  private readonly secrets: Secrets;

  constructor(
    private readonly base: string,
    private readonly options: VerifyOptions,
  ) {
    this.max = options.maxRequests ?? 60;
    this.maxWait = options.maxWait ?? 90;
    this.wait = options.wait ?? realWait;
    this.secrets = new Secrets(options.key);
  }

  /**
   * Sends one request and returns what came back. A 429 stops the run (`StopSending`) unless
   * `rateLimits` is on: then verify waits the Retry-After it was given and sends the request again.
   */
  async send(request: Request): Promise<Logged> {
    for (;;) {
      const logged = await this.once(request);
      if (logged.exchange.response?.status !== 429 || request.accept429) return logged;
      const seconds = retryAfterOf(logged.exchange);
      const { pathname, search } = new URL(this.base + request.path);
      const said = `${request.method} ${pathname}${search} answered 429${seconds === undefined ? ' without a Retry-After in seconds' : ` with Retry-After: ${seconds}`}`;
      const short = `verify stopped sending at a 429${seconds === undefined ? '' : ` (Retry-After: ${seconds})`}`;
      if (!this.options.rateLimits)
        throw new StopSending(`${said}, so verify stopped sending rather than risk a ban; run it again later, or with --rate-limits to wait as told`, short);
      if (seconds === undefined) throw new StopSending(`${said}, so verify cannot tell how long to wait and stopped sending`, short);
      if (seconds > this.maxWait) throw new StopSending(`${said}, longer than the ${this.maxWait} s verify waits, so it stopped sending`, short);
      await this.wait(seconds);
    }
  }

  private async once(request: Request): Promise<Logged> {
    if (this.sent >= this.max) throw new BudgetSpent(`the request budget (${this.max}, --max-requests) is spent`);
    this.sent++;
    const url = this.base + request.path;
    // No compression asked for; a service that compresses anyway is inflated as read, and the cap counts inflated bytes.
    const headers = { accept: 'application/json', 'accept-encoding': 'identity', ...this.options.headers, ...requestHeaders(request, this.options.key) };
    const exchange: Exchange = {
      request: {
        method: request.method,
        url: this.scrub(url),
        headers: this.scrubHeaders(headers),
        ...(request.body === undefined ? {} : { body: trimmed(this.scrub(request.body)) }),
      },
    };
    let json: unknown;
    let at = Date.now();
    let cut = false;
    const started = performance.now();
    const outcome = await readAnswer(url, { method: request.method, headers, body: request.body, timeoutMs: (this.options.timeout ?? 10) * 1000 });
    const ms = performance.now() - started;
    if ('error' in outcome) exchange.error = this.scrub(outcome.error);
    else {
      const { answer } = outcome;
      at = Date.now();
      const date = Date.parse(answer.headers.date ?? '');
      if (Number.isFinite(date)) at = date;
      cut = answer.cut;
      // Evidence keeps a trimmed copy; the whole text lives only while it is parsed.
      exchange.response = { status: answer.status, headers: this.scrubHeaders(answer.headers), body: trimmed(this.scrub(answer.body), cut) };
      if (!cut) json = jsonOf(answer.body);
    }
    const shape = shapeProblem(request.operation, exchange.response, cut, json);
    const logged: Logged = { exchange, json, at, cut, shape, request, ms, seen: seenOf(json) };
    // The log outlives the rule: it keeps the verdict on the body, not the body.
    this.log.push({ ...logged, json: undefined });
    return logged;
  }

  /** Replaces the key wherever it shows, in any spelling a service may echo it in. */
  scrub(text: string): string {
    return this.secrets.scrub(text);
  }

  private scrubHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      out[name] = name.toLowerCase() === 'authorization' && value === `Bearer ${this.options.key}` ? 'Bearer <key>' : this.scrub(value);
    }
    return out;
  }
}

/** The longest body evidence keeps, in characters. */
export const EVIDENCE_CHARS = 2000;

/** A body cut to what evidence keeps, saying how much it left out (and, when `cut`, that verify read no further). */
export function trimmed(text: string, cut = false): string {
  if (text.length <= EVIDENCE_CHARS) return text;
  const unread = cut ? `, and more past ${MAX_ANSWER_BYTES.toLocaleString('en-US')} bytes unread` : '';
  return `${text.slice(0, EVIDENCE_CHARS)}… (${text.length - EVIDENCE_CHARS} more characters${unread})`;
}
