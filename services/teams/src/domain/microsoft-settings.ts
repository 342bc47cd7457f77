import { AppError, type Config, type SettingsOf } from '@asistente/kit';
import type { settings } from '../settings.js';

/** What the Microsoft integration needs from the configuration; undefined until the administrator sets it. */
export interface MicrosoftSettings {
  clientId: string;
  clientSecret: string;
  tenant: string;
  /** Identity platform root, e.g. https://login.microsoftonline.com (no trailing slash). */
  loginUrl: string;
  /** Graph root with its version, e.g. https://graph.microsoft.com/v1.0 (no trailing slash). */
  graphUrl: string;
  /** Where Microsoft sends the browser back: PUBLIC_URL + /api/teams/callback. */
  redirectUri: string;
  /** The screen the callback returns the browser to. */
  screenUrl: string;
}

/** For the owner, who cannot set anything on the server: who can. The setting names go to the startup log and docs/api.md. */
export const NOT_CONFIGURED_MESSAGE = 'Microsoft 365 no está configurado en este servidor. Pide al administrador que configure la conexión con Microsoft 365.';

export const notConfigured = () => new AppError(503, 'MICROSOFT_NOT_CONFIGURED', NOT_CONFIGURED_MESSAGE);

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Where Microsoft sends the browser back (registered in Azure), as the browser sees it through the gateway. */
export const microsoftCallbackUrl = (config: Pick<Config, 'PUBLIC_URL'>): string => `${trimSlash(config.PUBLIC_URL)}/api/teams/callback`;

/** The app's address and the Microsoft variables teams declares (settings.ts). */
export function microsoftSettings(config: Pick<Config, 'PUBLIC_URL'> & SettingsOf<typeof settings>): MicrosoftSettings | undefined {
  const { MICROSOFT_CLIENT_ID: clientId, MICROSOFT_CLIENT_SECRET: clientSecret } = config;
  if (!clientId || !clientSecret) return undefined;
  const publicUrl = trimSlash(config.PUBLIC_URL);
  return {
    clientId,
    clientSecret,
    tenant: config.MICROSOFT_TENANT,
    loginUrl: trimSlash(config.MICROSOFT_LOGIN_URL),
    graphUrl: trimSlash(config.MICROSOFT_GRAPH_URL),
    redirectUri: microsoftCallbackUrl(config),
    screenUrl: `${publicUrl}/teams`,
  };
}
