import type { EmailIntegration, MailProviderName } from '@asistente/contracts';
import type { CheckedHost } from '@asistente/kit';

export interface ServerSettings {
  host: string;
  port: number;
  /** TLS from the first byte (993/465); false means STARTTLS, required except on ALLOWED_PRIVATE_ADDRESSES. */
  secure: boolean;
  user: string;
}

/** Settings whose host went through the host guard: connections go to `target.address`, nowhere else. */
export interface CheckedServer extends ServerSettings {
  target: CheckedHost;
}

/** What is sealed in `credentials_enc`: passwords of an IMAP/SMTP account or the tokens of an OAuth one. */
export type MailSecret =
  | { kind: 'password'; imapPassword: string; smtpPassword: string }
  | { kind: 'oauth'; accessToken: string; refreshToken: string; expiresAt: number };

export interface AccountRow {
  id: string;
  userId: string;
  provider: MailProviderName;
  email: string;
  imapHost: string;
  imapPort: number;
  imapSecure: boolean;
  imapUser: string;
  smtpHost: string;
  smtpPort: number;
  smtpSecure: boolean;
  smtpUser: string;
  credentialsEnc: string;
  connected: boolean;
  lastSyncAt: Date | null;
  error: string | null;
  /** Whether mail sent from this account is tracked unless a mail says otherwise. */
  trackDefault: boolean;
  /** A first sync in progress: mails in its window, and how many are stored. */
  syncTotal: number | null;
  syncStored: number | null;
}

/** An account ready to talk to its servers: settings checked plus the opened secret. */
export interface MailAccount {
  id: string;
  userId: string;
  provider: MailProviderName;
  email: string;
  imap: CheckedServer;
  smtp: CheckedServer;
  secret: MailSecret;
}

export function imapSettings(row: AccountRow): ServerSettings {
  return { host: row.imapHost, port: row.imapPort, secure: row.imapSecure, user: row.imapUser };
}

export function smtpSettings(row: AccountRow): ServerSettings {
  return { host: row.smtpHost, port: row.smtpPort, secure: row.smtpSecure, user: row.smtpUser };
}

/** The public view of an account: never a credential. */
export function toIntegration(row: AccountRow): EmailIntegration {
  return {
    id: row.id,
    provider: row.provider,
    email: row.email,
    connected: row.connected,
    lastSyncAt: row.lastSyncAt ? row.lastSyncAt.toISOString() : null,
    error: row.error,
    tracking: row.trackDefault,
    sync: row.syncTotal === null ? null : { stored: Math.min(row.syncStored ?? 0, row.syncTotal), total: row.syncTotal },
  };
}
