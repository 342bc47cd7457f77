import { HostNotAllowedError, type HostGuard } from '@asistente/kit';
import { connectionReason } from './connect-errors.js';
import { MailConnectError } from './mail-errors.js';
import type { CheckedServer, ServerSettings } from './account.js';

/**
 * A mailbox's two servers through the host guard, both before either is connected: a host that resolves
 * to a refused address answers HostNotAllowedError (400) with no connection made to any; a name that
 * does not resolve is a connection failure like any other.
 */
export class MailServers {
  constructor(private readonly guard: HostGuard) {}

  async check(imap: ServerSettings, smtp: ServerSettings): Promise<{ imap: CheckedServer; smtp: CheckedServer }> {
    const [checkedImap, checkedSmtp] = await Promise.allSettled([this.checkOne(imap, 'IMAP'), this.checkOne(smtp, 'SMTP')]);
    if (checkedImap.status === 'fulfilled' && checkedSmtp.status === 'fulfilled') return { imap: checkedImap.value, smtp: checkedSmtp.value };
    // A refused host is the answer whatever happened to the other one (its name may not resolve at all).
    const failures = [checkedImap, checkedSmtp].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    throw failures.find((error) => error instanceof HostNotAllowedError) ?? failures[0];
  }

  private async checkOne(settings: ServerSettings, server: 'IMAP' | 'SMTP'): Promise<CheckedServer> {
    const target = await this.guard.check(settings.host).catch((error: unknown) => {
      if (error instanceof HostNotAllowedError) throw error;
      throw new MailConnectError(server, connectionReason(error, settings.host, settings.port));
    });
    return { ...settings, target };
  }
}
