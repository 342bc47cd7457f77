import { GOOGLE_SETTINGS, MICROSOFT_SETTINGS } from '@asistente/contracts';
import { defineSettings, type SettingsOf } from '@asistente/kit';
import { Type } from '@sinclair/typebox';

/** What email reads from the environment, besides the platform's config: the Google and Microsoft apps (shared with calendar and teams) and its own. */
export const settings = defineSettings({
  ...GOOGLE_SETTINGS,
  ...MICROSOFT_SETTINGS,
  /** Mail servers of the OAuth providers (`imaps://` TLS, `imap://` STARTTLS or plain loopback; same for smtps/smtp). */
  GMAIL_IMAP_URL: Type.String({ pattern: '^imaps?://', default: 'imaps://imap.gmail.com:993' }),
  GMAIL_SMTP_URL: Type.String({ pattern: '^smtps?://', default: 'smtps://smtp.gmail.com:465' }),
  OUTLOOK_IMAP_URL: Type.String({ pattern: '^imaps?://', default: 'imaps://outlook.office365.com:993' }),
  OUTLOOK_SMTP_URL: Type.String({ pattern: '^smtps?://', default: 'smtp://smtp.office365.com:587' }),
  /** First sync of a mailbox: how many days back, and at most how many messages per folder. */
  EMAIL_SYNC_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  EMAIL_SYNC_MAX_PER_FOLDER: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 2000 }),
  /** Mail accounts one user may connect; the next answers 409. */
  MAIL_MAX_ACCOUNTS: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /**
   * A mail larger than this is never fetched whole: opening it reads the start of its text and its list of
   * attachments, and each attachment streams from the server when downloaded (25 MB).
   */
  MAIL_MAX_MESSAGE_BYTES: Type.Integer({ minimum: 65_536, maximum: 1_073_741_824, default: 26_214_400 }),
});

export type EmailSettings = SettingsOf<typeof settings>;
