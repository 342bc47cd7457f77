import { Type } from '@sinclair/typebox';

/**
 * One Microsoft Entra app, read by teams (Teams, Outlook calendar) and email (Outlook mail): both declare
 * these properties from this one definition.
 */
export const MICROSOFT_SETTINGS = {
  MICROSOFT_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  MICROSOFT_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  MICROSOFT_TENANT: Type.String({ minLength: 1, default: 'common' }),
  /** Microsoft identity platform and Graph, overridable for proxies and tests. */
  MICROSOFT_LOGIN_URL: Type.String({ pattern: '^https?://', default: 'https://login.microsoftonline.com' }),
  MICROSOFT_GRAPH_URL: Type.String({ pattern: '^https?://', default: 'https://graph.microsoft.com/v1.0' }),
};
