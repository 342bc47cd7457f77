import { Type, type Static } from '@sinclair/typebox';

/**
 * What a personal access token may reach: an area and an access. A session (the web app, the CLI logged
 * in with a password) carries no scopes and reaches everything; a token reaches only what its scopes name,
 * and never the account routes (password, tokens, export, deletion).
 */
export const PersonalTokenScope = Type.Union([
  Type.Literal('contacts:read'),
  Type.Literal('contacts:write'),
  Type.Literal('whatsapp:read'),
  Type.Literal('whatsapp:send'),
  Type.Literal('emails:read'),
  Type.Literal('emails:send'),
  Type.Literal('calendar:read'),
  Type.Literal('calendar:write'),
  Type.Literal('teams:read'),
  Type.Literal('analytics:read'),
]);
export type PersonalTokenScope = Static<typeof PersonalTokenScope>;
export const PERSONAL_TOKEN_SCOPES: readonly PersonalTokenScope[] = PersonalTokenScope.anyOf.map((l) => l.const);
