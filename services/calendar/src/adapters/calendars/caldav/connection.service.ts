import { securityActivityEvent, type Outbox, type SecretBox, type SecretContext, type SecurityClient, type Sql } from '@asistente/kit';
import { CALDAV_PASSWORD_COLUMN } from '../../../domain/secret-columns.js';
import type { CaldavConnector, CaldavSession } from './session.js';
import type { CaldavCalendar, CaldavRepository } from '../../../domain/caldav.repository.js';
import { caldavNotConnected, connectError } from './errors.js';

export interface CaldavStatus {
  connected: boolean;
  url: string | null;
  username: string | null;
}

/** The AAD of the stored password: the registry's table and column, so rotate-keys opens it with the same context. */
const context = (userId: string): SecretContext => ({ userId, table: CALDAV_PASSWORD_COLUMN.table, column: CALDAV_PASSWORD_COLUMN.column });

/** A URL typed without a scheme is an https one (the presets and what iCloud or Fastmail say to type). */
export function serverUrl(typed: string): string {
  const trimmed = typed.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

/**
 * The user's CalDAV connection: checked against the server before anything is stored (discovery, sign-in,
 * the calendar list), the app password sealed with the key ring, status, disconnect, and the session the
 * events service uses.
 */
export class CaldavConnectionService {
  constructor(
    private readonly connector: CaldavConnector,
    private readonly repository: CaldavRepository,
    private readonly box: SecretBox,
    private readonly sql: Sql,
    private readonly outbox: Outbox,
  ) {}

  async connect(userId: string, input: { url: string; username: string; password: string }, client: SecurityClient): Promise<CaldavCalendar[]> {
    const url = serverUrl(input.url);
    const credentials = { username: input.username.trim(), password: input.password };
    let session: CaldavSession;
    let calendars: CaldavCalendar[];
    try {
      session = await this.connector.discover(url, credentials);
      calendars = await session.listCalendars();
    } catch (error) {
      throw connectError(error);
    }
    const account = { ...session.location, serverUrl: url, username: credentials.username, passwordEnc: this.box.seal(credentials.password, context(userId)) };
    await this.sql.begin(async (tx) => {
      await this.repository.connect(tx, userId, account, calendars);
      await this.outbox.append(tx, [securityActivityEvent(userId, 'provider.connected', client, { provider: 'caldav', account: `${credentials.username} (${new URL(url).host})`.slice(0, 320) })]);
    });
    return calendars;
  }

  async status(userId: string): Promise<CaldavStatus> {
    const account = await this.repository.account(userId);
    return { connected: account !== undefined, url: account?.serverUrl ?? null, username: account?.username ?? null };
  }

  async disconnect(userId: string, client: SecurityClient): Promise<void> {
    const account = await this.repository.account(userId);
    if (!account) return;
    await this.repository.delete(userId, (tx) =>
      this.outbox.append(tx, [securityActivityEvent(userId, 'provider.disconnected', client, { provider: 'caldav', account: `${account.username} (${new URL(account.serverUrl).host})`.slice(0, 320) })]),
    );
  }

  async connected(userId: string): Promise<boolean> {
    return (await this.repository.account(userId)) !== undefined;
  }

  /** A session on the stored account (no discovery); 409 when there is none. */
  async session(userId: string): Promise<CaldavSession> {
    const account = await this.repository.account(userId);
    if (!account) throw caldavNotConnected();
    const { username, passwordEnc, ...location } = account;
    return this.connector.open(location, { username, password: this.box.open(passwordEnc, context(userId)) });
  }
}
