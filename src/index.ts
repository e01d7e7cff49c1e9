/**
 * petstore-mock's public library surface. Nothing here listens on import: `startMock` starts a
 * server, `createFetchHandler` answers in-process. src/README.md maps the folders behind it.
 */
export { startMock, createFetchHandler, clockOf } from './mock.js';
export type {
  MockOptions,
  SharedMockOptions,
  SharedFetchOptions,
  MockClock,
  SessionHandle,
  RunningMock,
  FetchHandlerOptions,
  MockFetchHandler,
  MockHandle,
} from './mock.js';
export type { Answer, RequestsQuery } from './controls.js';
export type { JournalFilter, VerifyCount } from './core/state/journal-query.js';
export type { JournalDetails, JournalMessage } from './core/state/journal-details.js';
export type { SessionSummary } from './core/state/sessions.js';
export type { ClockState } from './core/state/clock.js';
export type { ReloadReport } from './files/live-reload.js';
export type { CloseOptions } from './mock-options.js';
export type { KeyOption } from './library-options.js';
export type { JournalEntry } from './core/state/journal.js';
export type { Har, HarEntry } from './core/state/har.js';
export type { CoreRequest, CoreResponse, KeyConfig, Limits, Pet, PetStatus, PlanName, RateWindow } from './core/types.js';
export { ERROR_CATALOGUE, UserError, type ErrorCode } from './core/errors.js';
export { openapiDocument } from './core/input/openapi.js';
export { PLAN_LIMITS } from './core/state/plans.js';
export { MockEngine } from './core/pipeline/engine.js';
export { ScenarioError } from './core/scenarios/scenario-compiler.js';

export type { SharedRunningMock, SharedSessionHandle, SharedFetchHandler } from './shared-mock.js';
export type { AdminState, ApiHandler, StateReport } from './core/state/backend.js';
/** The former name of `ApiHandler`, kept so code written against it still compiles. */
export type { ApiHandler as ApiCore } from './core/state/backend.js';
export { connectMock } from './remote/connect.js';
export type { ConnectOptions, Connected, RemoteMock } from './remote/connect.js';
export { AdminCallError } from './remote/admin-client.js';
export { verify } from './verify/entry.js';
export { VerifyCouldNotRun } from './verify/types.js';
export type { VerifyOptions, VerifyReport, RuleResult, Exchange } from './verify/types.js';
export { auditJournal, AUDIT_RULES } from './core/audit/audit.js';
export { audit } from './audit-command/entry.js';
export { AuditCouldNotRun } from './audit-command/could-not-run.js';
export type { RemoteAuditOptions } from './audit-command/fetch-audit.js';
export type { AuditedKey, AuditFinding, AuditOptions, AuditReport, AuditRule, AuditSeverity, WellBehavedOptions } from './core/audit/audit.js';
