import type { ImapFlow } from 'imapflow';
import { traceClientCall, type Logger } from '@asistente/kit';
import type { CheckedServer } from '../domain/account.js';
import { connectionReason, withDeadline } from '../domain/connect-errors.js';
import { MailConnectError } from '../domain/mail-errors.js';
import type { MailboxLogin } from '../domain/mailbox.js';

// Thrown by the connections made here; declared in the domain, which acts on it.
export { MailConnectError };

export type ImapAuth = { user: string; pass: string } | { user: string; accessToken: string };

/** The IMAP login of an account: its IMAP password, or its OAuth access token (XOAUTH2). */
export function imapAuth({ imap, secret }: MailboxLogin): ImapAuth {
  return secret.kind === 'password' ? { user: imap.user, pass: secret.imapPassword } : { user: imap.user, accessToken: secret.accessToken };
}

/** The whole login (TCP, TLS, greeting, authentication) ends within this, whatever the peer does. */
export const CONNECT_DEADLINE_MS = 12_000;

export interface ImapOptions {
  /** Keep the connection in IDLE between commands (the inbox watcher); off for one-shot connections. */
  idle?: boolean;
}

/**
 * imapflow is loaded by the first connection, not with the service (~15 MB resident an install without a
 * mailbox never uses); Node keeps it once loaded.
 */
export async function createImapClient(settings: CheckedServer, auth: ImapAuth, options: ImapOptions = {}): Promise<ImapFlow> {
  const { ImapFlow } = await import('imapflow');
  const { target } = settings;
  return new ImapFlow({
    // The address the guard checked, so no second DNS answer is asked; the certificate is checked for the name.
    host: target.address,
    servername: target.servername,
    port: settings.port,
    secure: settings.secure,
    // No password in clear: STARTTLS is required, or the login never starts. Only the operator's own
    // network (ALLOWED_PRIVATE_ADDRESSES) may speak plain IMAP, using STARTTLS when offered.
    ...(settings.secure ? {} : { doSTARTTLS: target.plaintextAllowed ? undefined : true }),
    auth,
    logger: false,
    connectionTimeout: 8_000,
    greetingTimeout: 5_000,
    socketTimeout: 5 * 60_000,
    ...(options.idle ? { autoIdleDelay: 200 } : { disableAutoIdle: true }),
  });
}

/**
 * A logged-in client. A failed connect is closed here (imapflow otherwise keeps the process alive), and
 * the failure becomes a MailConnectError with the reason in Spanish.
 */
export async function openImap(settings: CheckedServer, auth: ImapAuth, log?: Logger, options: ImapOptions = {}): Promise<ImapFlow> {
  const client = await createImapClient(settings, auth, options);
  client.on('error', (error: unknown) => log?.debug({ err: error }, 'imap connection error'));
  try {
    // A client span (tracing on): server and outcome of the connection and login, never the credentials.
    await traceClientCall('imap connect', { 'server.address': settings.host, 'server.port': settings.port }, () =>
      withDeadline(client.connect(), CONNECT_DEADLINE_MS, () => Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
    );
    return client;
  } catch (error) {
    client.close();
    const e = error as { authenticationFailed?: boolean };
    throw new MailConnectError('IMAP', connectionReason(error, settings.host, settings.port), e.authenticationFailed === true);
  }
}

/** Logs out politely, or drops the socket when the server does not answer. */
export async function closeImap(client: ImapFlow): Promise<void> {
  try {
    if (client.usable) await withDeadline(client.logout(), 3_000, () => new Error('logout timeout'));
  } catch {
    // the socket is closed below either way
  } finally {
    client.close();
  }
}
