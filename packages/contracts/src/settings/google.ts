import { Type } from '@sinclair/typebox';

/**
 * One Google OAuth app, read by calendar (Calendar, Meet) and email (Gmail): both services declare these
 * properties in their settings, from this one definition, so the two cannot disagree on a name or a default.
 */
export const GOOGLE_SETTINGS = {
  GOOGLE_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  GOOGLE_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  /** Google's endpoints, overridable for proxies and tests. */
  GOOGLE_AUTH_URL: Type.String({ pattern: '^https?://', default: 'https://accounts.google.com/o/oauth2/v2/auth' }),
  GOOGLE_TOKEN_URL: Type.String({ pattern: '^https?://', default: 'https://oauth2.googleapis.com/token' }),
  GOOGLE_REVOKE_URL: Type.String({ pattern: '^https?://', default: 'https://oauth2.googleapis.com/revoke' }),
  GOOGLE_API_URL: Type.String({ pattern: '^https?://', default: 'https://www.googleapis.com/' }),
};
