import { revokeGrant, type FailureWindow, type Logger, type OAuthStrategy, type OAuthTokens, type UserErasure } from '@asistente/kit';
import type { AccountsRepository } from '../domain/accounts.repository.js';
import type { Credentials } from '../domain/credentials.js';
import type { SyncManager } from '../domain/sync-manager.js';

/** What the erasure needs of a provider's OAuth strategy: its revocation, absent when the provider has none. */
export type GrantRevoker = Pick<OAuthStrategy<OAuthTokens>, 'revoke'>;

export const gmailRevokeFailed = (address: string) =>
  `Google no confirmó la revocación del acceso al correo ${address}: puedes retirarlo en myaccount.google.com/permissions`;

export interface EmailErasureDeps {
  accounts: AccountsRepository;
  credentials: Credentials;
  sync: SyncManager;
  /** `email.login_failures`: the per-user key names the user's id. */
  loginFailures: FailureWindow;
  revokers: { gmail: GrantRevoker; outlook: GrantRevoker };
  log: Logger;
}

/**
 * Email's part of "Eliminar mi cuenta": each mailbox's sync and IDLE connection is closed by the replica
 * that holds its lease (told through NOTIFY when it is another), a Gmail grant is revoked at Google's
 * revocation endpoint and an Outlook one forgotten (Microsoft has no endpoint for it), then the sweep
 * erases accounts (folders and attachments by cascade), messages, templates, sent mail and counts; the
 * user's key of the login limits is keyed by text, so it goes by hand.
 */
export function emailErasure({ accounts, credentials, sync, loginFailures, revokers, log }: EmailErasureDeps): UserErasure {
  return {
    service: 'email',
    disconnect: async (userId) => {
      const problems: string[] = [];
      for (const account of await accounts.list(userId)) {
        await sync.stop(account.id);
        if (account.provider === 'imap') continue;
        try {
          const secret = credentials.secretOf(account);
          if (secret.kind === 'oauth') await revokeGrant(revokers[account.provider], secret.refreshToken || secret.accessToken);
        } catch (error) {
          log.warn({ err: error instanceof Error ? error.message : error, provider: account.provider }, 'mail grant not revoked during erasure');
          problems.push(gmailRevokeFailed(account.email));
        }
      }
      return problems;
    },
    erase: (tx, userId) => loginFailures.forget(tx, `user:${userId}`),
  };
}
