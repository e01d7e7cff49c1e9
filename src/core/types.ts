import type { openapiDocument } from './input/openapi.js';

/** The availability of an animal, as the specification's `PetStatus` enumeration. */
export type PetStatus = 'available' | 'pending' | 'sold';

/** An animal as the store keeps it. `categoryId` is a bigint only when it lies beyond 2^53. */
export interface Pet {
  readonly id: number;
  readonly name: string;
  readonly categoryId: number | bigint;
  readonly status?: PetStatus;
}

/** Header values as Node gives them: lower-case names, repeated ones possibly as arrays. */
export type HeaderBag = Record<string, string | string[] | undefined>;

/** A request as the core sees it: no sockets, no framework. */
export interface CoreRequest {
  method: string;
  /** The path of the request target, still percent-encoded, without the query. */
  path: string;
  /** The raw query string without the leading `?` ('' when there is none). */
  query: string;
  headers: HeaderBag;
  /** Header names as sent, alternating with values, to see repeated headers Node would fold. */
  rawHeaders?: readonly string[];
  body?: Uint8Array | null;
  /** True when the adapter stopped reading because the body passed the size limit. */
  bodyTooLarge?: boolean;
  remoteAddress?: string;
  /** When the head reached the mock, on `performance.now()`'s clock; the adapters stamp it. */
  arrival?: number;
  /** The number of the connection it came on, when it came on one. */
  connection?: number;
  /** How many requests that connection had carried, this one included, whatever their session or key. */
  connectionUse?: number;
}

/**
 * What a forced answer may do to the connection instead of answering normally; the one list the
 * scenario schema's `fault` enum is checked against (test/scenarios/fixed-lists.test.ts).
 */
export const CONNECTION_FAULTS = ['reset', 'empty', 'truncate'] as const;
export type ConnectionFault = (typeof CONNECTION_FAULTS)[number];

/** A response as the core returns it; the adapter writes it out. */
export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
  /** Milliseconds the adapter waits before answering (scenario latency). */
  delayMs?: number;
  /** A connection fault the adapter acts out instead of a clean answer. */
  fault?: ConnectionFault;
}

/** One fixed window: at most `max` requests in each stretch of `lengthMs` aligned to the clock (its second, minute, hour, UTC day). */
export interface RateWindow {
  readonly lengthMs: number;
  readonly max: number;
}

/** The limits of a plan or a key: any number of fixed windows, shortest first, each length once. A request must fit all. */
export type Limits = readonly RateWindow[];

export type PlanName = 'free' | 'pro' | 'business' | 'enterprise';

/** An API key the mock accepts. */
export interface KeyConfig {
  key: string;
  plan: PlanName;
  limits: Limits;
  /** True when the limits are the key's own, not its plan's: a scenario's plan limits then leave it alone. */
  custom?: boolean;
  revoked?: boolean;
}

/** How many requests sent while limited lead to a ban, and for how long. `after: 0` turns bans off. */
export interface BanRule {
  after: number;
  durationMs: number;
  /** How many refusals of one wait are forgiven as requests in flight before its first 429 could be read; `BAN_IN_FLIGHT` by default. */
  inFlight?: number;
}

type DocumentPaths = (typeof openapiDocument)['paths'];

/** The methods of the specification's operations, as requests send them. */
export type OperationMethod = {
  [P in keyof DocumentPaths]: {
    [M in keyof DocumentPaths[P]]: DocumentPaths[P][M] extends { operationId: string } ? Uppercase<M & string> : never;
  }[keyof DocumentPaths[P]];
}[keyof DocumentPaths];

/** The operations of the specification, as the router names them: the OpenAPI document's operationIds. */
export type OperationId = {
  [P in keyof DocumentPaths]: { [M in keyof DocumentPaths[P]]: DocumentPaths[P][M] extends { operationId: infer I } ? I : never }[keyof DocumentPaths[P]];
}[keyof DocumentPaths];
