import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { ImapFlow } from 'imapflow';
import { startDovecot, type Dovecot } from '../../../services/email/test/fixtures/dovecot.js';
import { otherMailApp, rawMail } from '../../../services/email/test/fixtures/imap-peer.js';
import { startSmtpPeer, type SmtpPeer } from '../../../services/email/test/fixtures/smtp-peer.js';
import type { Teardown } from './support.js';

/** How the fault suite calls the gateway: a status (0 when the request never got an answer) and the raw body. */
export type Call = (method: string, url: string, body?: object, headers?: Record<string, string>) => Promise<{ status: number; body: string }>;

const OWNER = 'ana@example.com';
const PASSWORD = 'clave-de-prueba';
const CUSTOMER = 'cliente@example.com';
/** A request cut in flight (a killed replica, a terminated connection): the same key is sent again. */
const RETRIED = new Set([0, 502, 503]);
const MAX_ATTEMPTS = 10;

export const DOVECOT = '/usr/sbin/dovecot';

/**
 * The mail side of the fault suite: Dovecot (IMAP) and smtp-server peers of the test's own, an IMAP/SMTP account
 * connected through the gateway, sends made with an Idempotency-Key per logical send (retried with the same key
 * when cut), and mails appended to the mailbox as another mail app would. It records what it was told, so the
 * suite can check what the peers got and what the API lists.
 */
export class MailLoad {
  /** Subjects of the sends answered 200. */
  readonly accepted: string[] = [];
  /** Subjects of the sends answered 409: the first attempt's process died mid-send, the owner is told to look in Enviados. */
  readonly inDoubt: string[] = [];
  /** Every status a send got that was not its final 200 or 409, as `<status>` (the suite explains them by phase). */
  readonly cut: number[] = [];
  /** Subjects of the mails appended to the inbox, with when. */
  readonly appended: { subject: string; at: number }[] = [];
  private sends = 0;

  private constructor(
    private readonly dovecot: Dovecot,
    readonly smtp: SmtpPeer,
    private readonly phone: ImapFlow,
  ) {}

  static available(): boolean {
    return existsSync(DOVECOT);
  }

  static async start(t: Teardown): Promise<MailLoad> {
    const dovecot = await startDovecot({ users: [{ user: OWNER, password: PASSWORD }] });
    t.teardown(() => dovecot.stop());
    const smtp = await startSmtpPeer({ users: { [OWNER]: PASSWORD } });
    t.teardown(() => smtp.close());
    const phone = await otherMailApp(dovecot.host, dovecot.port, OWNER, PASSWORD);
    t.teardown(async () => {
      await phone.logout().catch(() => undefined);
      phone.close();
    });
    return new MailLoad(dovecot, smtp, phone);
  }

  /** The body of POST /api/emails/integrations for the account on the two peers. */
  get account(): object {
    return {
      provider: 'imap',
      credentials: {
        email: OWNER,
        imap: { host: this.dovecot.host, port: this.dovecot.port, secure: false, user: OWNER, password: PASSWORD },
        smtp: { host: this.smtp.host, port: this.smtp.port, secure: false, user: OWNER, password: PASSWORD },
      },
    };
  }

  /** One logical send: attempted until it is answered, the same Idempotency-Key on every attempt. */
  async send(call: Call, phase: () => string, failures: string[]): Promise<void> {
    const i = this.sends++;
    const subject = `Correo ${i}`;
    const key = `correo-${i}-${randomUUID()}`;
    for (let attempt = 1; ; attempt++) {
      const res = await call('POST', '/emails/send', { to: CUSTOMER, subject, body: `Hola, este es el correo ${i}`, track: false }, { 'idempotency-key': key });
      if (res.status === 200) return void this.accepted.push(subject);
      if (res.status === 409) return void this.inDoubt.push(subject);
      this.cut.push(res.status);
      failures.push(`${phase()} POST /emails/send ${res.status}`);
      if (!RETRIED.has(res.status) || attempt === MAX_ATTEMPTS) return;
    }
  }

  /** A mail arriving in the inbox (appended over IMAP, as a mail server delivers it). */
  async append(subject: string): Promise<void> {
    await this.phone.append('INBOX', rawMail({ from: CUSTOMER, to: OWNER, subject, body: 'Un correo entrante', messageId: `<${randomUUID()}@example.com>` }));
    this.appended.push({ subject, at: Date.now() });
  }

  /** How many times each subject reached the SMTP peer. */
  delivered(): Map<string, number> {
    const seen = new Map<string, number>();
    for (const mail of this.smtp.received) seen.set(mail.parsed.subject ?? '', (seen.get(mail.parsed.subject ?? '') ?? 0) + 1);
    return seen;
  }
}

/** Every subject of one folder as GET /api/emails lists it, page after page. */
export async function listedSubjects(call: Call, folder: 'inbox' | 'sent'): Promise<string[]> {
  const subjects: string[] = [];
  for (let page = 1; ; page++) {
    const res = await call('GET', `/emails?folder=${folder}&limit=100&page=${page}`);
    if (res.status !== 200) throw new Error(`GET /api/emails answered ${res.status}: ${res.body}`);
    const list = JSON.parse(res.body) as { data: { subject: string }[]; pagination: { total: number } };
    subjects.push(...list.data.map((m) => m.subject));
    if (list.data.length === 0 || subjects.length >= list.pagination.total) return subjects;
  }
}
