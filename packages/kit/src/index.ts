export { loadConfig, ConfigSchema, eventNames, distributedRequiredVariables, type Config } from './config.js';
export { defineSettings, readSettings, ConfigError, type SettingsDefinition, type SettingsOf, type SettingsSource } from './settings.js';
export { serviceUrls, serviceUrlVariable } from './http/service-urls.js';
export { exitOnConfigError } from './boot-errors.js';
export { createLogger, type Logger } from './logger.js';
export { openDatabase, allowLongStatements, withoutStatementTimeout, type Database, type Sql, type TransactionSql } from './db/database.js';
export { migrate, MIGRATIONS_DIR } from './db/migrate.js';
export { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded.js';
export {
  runningEmbedded,
  staleEmbedded,
  assertDataDirFree,
  announceEmbedded,
  DataDirInUseError,
  PRESENCE_FILE,
  type EmbeddedPresence,
  type StaleLock,
} from './db/embedded-presence.js';
export { bulkLoad, type TextRow } from './db/bulk-load.js';
export { CoalescedRead } from './db/coalesced-read.js';
export { FailureWindow, type FailureLimit } from './db/failure-window.js';
export { PeriodicJob, utcDay, retentionCutoff, type PeriodicJobOptions, type PeriodicRun } from './db/periodic-job.js';
export { LeaseLoop, type LeaseLoopOptions, type LeaseStore, type LeaseTiming, type Leased } from './db/lease-loop.js';
export { SqlLeases, type LeaseColumns } from './db/sql-leases.js';
export * from './retention/index.js';
export { LruMap } from './cache/lru-map.js';
export { createEvent, type EventEnvelope } from './events/envelope.js';
export { EventValidator, type Validation } from './events/event-validator.js';
export { securityActivityEvent, type SecurityClient } from './events/security-activity.js';
export type { EventBus, EventHandler, SignalHandler } from './events/bus.js';
export { MemoryBus } from './events/memory-bus.js';
export { JetStreamBus, StreamOwnershipError } from './events/jetstream-bus.js';
export { Outbox } from './events/outbox.js';
export { OutboxRelay } from './events/relay.js';
export { registerUserErasure, erasureConsumerName, UserErasureConsumer, PROVIDER_STEP_FAILED, type UserErasure, type ErasureDeps } from './erasure/user-erasure.js';
export { sweepUserRows, USER_DELETED } from './erasure/sweep.js';
export { createHttpApp, trustProxySetting, SECURITY_HEADERS, type App } from './http/app.js';
export { normalisePath } from './http/request-target.js';
export { describedRoute } from './http/described-route.js';
export { LiveStreams, RECONNECT_AFTER_MS, type LiveStream } from './http/live-streams.js';
export { findInputProblem, CONTROL_CHARACTER_MESSAGE } from './http/input-guard.js';
export { leanSerializationSchema } from './http/serializer.js';
export { AppError, BAD_URL_MESSAGE, notFound, badRequest, unauthorized, conflict, errorBody, isDatabaseUnavailable, DATABASE_UNAVAILABLE, type ErrorBody } from './http/errors.js';
export { healthRoutes } from './http/health.js';
export {
  callerOf,
  ServiceClient,
  ServiceCallError,
  ServiceAnswerError,
  workspaceOf,
  type AnswerLog,
  type MemberCaller,
  type ServiceCaller,
  type CallArguments,
  type CallOptions,
  type InjectFn,
} from './http/service-client.js';
export { OAuthStateSigner, type OAuthState, type VerifiedOAuthState } from './auth/oauth-state.js';
export { OAuthFlow, OAuthFlows, OAUTH_BROWSER_COOKIE, type OAuthStart, type OAuthFinish, type OAuthRefusal } from './auth/oauth-flow.js';
export { OAuthClient, renewGrant, revokeGrant, withRotation, type OAuthCallback, type OAuthCallbackQuery } from './auth/oauth/oauth-client.js';
export type { OAuthStrategy, OAuthTokens } from './auth/oauth/oauth-strategy.js';
export { postTokenRequest, revokeAtEndpoint, type TokenEndpointAnswer } from './auth/oauth/token-endpoint.js';
export { redactUrl, REDACTED_QUERY_PARAMETERS } from './http/redact-url.js';
export { TOKEN_CHECKED_HEADER, TOKEN_CHECKED_TTL_MS, tokenCheckedProof, acceptsTokenCheckedProof, AcceptedProofs, TokenCheckedProofs } from './auth/token-checked.js';
export { CLIENT_ADDRESS_HEADER, clientAddressProof, addressFromProof } from './auth/client-address.js';
export { authPlugin, requireAuth, roleRefused, scopeRefused, SCOPE_REFUSED, type ActingMember, type AuthenticatedUser, type TokenSettings, type TokenClaims, type JWT } from './auth/plugin.js';
export { Revocations, type SessionsEnded, type TokenIdentity } from './auth/revocations.js';
export { currentMemberId, runAsNoOne } from './auth/acting-member.js';
export { callerTokenId, exchangedFromPersonalToken, exchangedTokenJti, isExchangedFrom } from './auth/exchanged-tokens.js';
export {
  EXCHANGED_TOKEN_SECONDS,
  exchangedTokenSigner,
  hashPersonalToken,
  looksLikePersonalToken,
  newPersonalToken,
  PersonalTokenLookup,
  type NewPersonalToken,
  type PersonalTokenGrant,
} from './auth/personal-tokens.js';
export { PersonalTokenBudget, PERSONAL_TOKEN_GONE, TOKEN_BUDGET_WINDOW_SECONDS, type BudgetLeft } from './auth/personal-token-budget.js';
export { hashResetToken, issuePasswordResetLink, PASSWORD_RESET_TTL_MS, type PasswordResetLink } from './auth/password-reset-links.js';
export { createPlatform, type Platform, type PlatformOptions } from './platform.js';
export { runService, type ServicePlugin } from './service.js';
export { stopOnSignals, HARD_DEADLINE_MS, type ProcessStop } from './shutdown.js';
export { HostGuard, HostNotAllowedError, HOST_NOT_ALLOWED_MESSAGE, type CheckedHost, type Resolver } from './net/host-guard.js';
export * from './secrets/index.js';
export * from './observability/metrics/index.js';
export * from './observability/tracing/index.js';
export { accountExportRoute, readAccountExportPage, keysetPart, jsonArrayPart, singlePart, ACCOUNT_EXPORT_PAGE_BYTES, type AccountExportPart, type KeysetSource } from './http/account-export.js';
export { csvCell, csvLine, neutralizeFormula } from './csv.js';
export { withDeadline } from './deadline.js';
export { checkEventForm, parseDay, parseInstant, type CheckedEventForm } from './calendar-form.js';
export type {
  ChannelIntake,
  IncomingMessage,
  Media,
  MediaKind,
  MessagingProvider,
  OutgoingContent,
  OutgoingMessage,
  ProviderCapabilities,
  ProviderState,
  ProviderStatus,
  Receipt,
  ReceiptStatus,
  SentMessage,
} from './messaging/messaging-port.js';
