import { randomUUID } from 'node:crypto';
import {
  EMAIL_ATTACHMENTS_MAX_BYTES,
  type EmailSent,
  type ForwardBody,
  type OutgoingAttachment,
  type PersonalTokenScope,
  type ReplyBody,
  type SendEmailBody,
} from '@asistente/contracts';
import { badRequest, createEvent, type Logger, type Outbox, type Sql } from '@asistente/kit';
import type { AccountRow, MailAccount } from './account.js';
import type { AccountsRepository } from './accounts.repository.js';
import type { Credentials } from './credentials.js';
import type { MailComposer } from './mail-composer.js';
import { MailConnectError } from './mail-errors.js';
import type { MailTransport } from './mail-transport.js';
import { withMailbox, type MailboxProvider } from './mailbox.js';
import type { MessageRow, MessagesRepository } from './messages.repository.js';
import { mailServerError, type MessagesService } from './messages.service.js';
import { unresolvedError, type Personalizer } from './personalize.js';
import { addressesIn, bareAddress, parseRecipients } from './recipients.js';
import type { SendOnce, SendTicket } from './send-once.js';
import { sendingAccount } from './sending-account.js';
import { escapeHtml, looksLikeHtml, sanitizeMailHtml, textToHtml } from './sanitize.js';
import type { SyncManager } from './sync-manager.js';
import { addTracking, type TrackingSigner } from './tracking.js';

interface Attachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

interface Draft {
  to: string[];
  cc: string[];
  subject: string;
  /** What the owner typed (text or HTML). */
  body: string;
  /** Quoted or forwarded original, appended below the body. */
  quoted?: { html: string; text: string };
  attachments: Attachment[];
  inReplyTo?: string | undefined;
  references?: string | undefined;
  track: boolean;
}

const TOO_LARGE = 'Los adjuntos superan el límite de 25 MB';

function decodeAttachments(list: OutgoingAttachment[] | undefined): Attachment[] {
  const decoded = (list ?? []).map((a) => ({
    filename: a.filename,
    contentType: a.contentType || 'application/octet-stream',
    content: Buffer.from(a.content, 'base64'),
  }));
  const total = decoded.reduce((sum, a) => sum + a.content.length, 0);
  if (total > EMAIL_ATTACHMENTS_MAX_BYTES) throw badRequest(TOO_LARGE, 'ATTACHMENTS_TOO_LARGE');
  return decoded;
}

function prefixed(prefix: string, subject: string): string {
  return new RegExp(`^${prefix}\\s*:`, 'i').test(subject.trim()) ? subject : `${prefix}: ${subject}`;
}

function dateText(date: Date): string {
  return date.toLocaleString('es-ES', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
}

/** Sends through the account's transport, files a copy in Sent, records the mail for tracking and analytics. */
export class MailSender {
  constructor(
    private readonly sql: Sql,
    private readonly accounts: AccountsRepository,
    private readonly messages: MessagesRepository,
    private readonly reader: MessagesService,
    private readonly credentials: Credentials,
    private readonly sync: SyncManager,
    private readonly outbox: Outbox,
    private readonly signer: TrackingSigner,
    private readonly trackBase: string,
    private readonly log: Logger,
    private readonly once: SendOnce,
    private readonly personalizer: Personalizer,
    private readonly composer: MailComposer,
    private readonly transport: MailTransport,
    private readonly mailboxes: MailboxProvider,
  ) {}

  /** `key`: the request's Idempotency-Key; a retry with it answers this send instead of sending again. */
  /** `scopes`: a personal token's, which bound what the mail's variables may be filled from. */
  send(userId: string, body: SendEmailBody, key?: string, scopes?: readonly PersonalTokenScope[]): Promise<EmailSent> {
    return this.once.run(userId, key, ['send', body], (ticket) => this.sendNew(userId, body, ticket, scopes));
  }

  reply(userId: string, id: string, body: ReplyBody, key?: string): Promise<EmailSent> {
    return this.once.run(userId, key, ['reply', id, body], (ticket) => this.sendReply(userId, id, body, ticket));
  }

  forward(userId: string, id: string, body: ForwardBody, key?: string): Promise<EmailSent> {
    return this.once.run(userId, key, ['forward', id, body], (ticket) => this.sendForward(userId, id, body, ticket));
  }

  /**
   * A mail written with `{variables}` goes as one mail per recipient in `to`, each filled from that
   * recipient's contact now (cc gets every copy). One left unfilled stops the send unless the owner confirmed.
   */
  private async sendNew(userId: string, body: SendEmailBody, ticket: SendTicket, scopes: readonly PersonalTokenScope[] | undefined): Promise<EmailSent> {
    const to = parseRecipients(body.to, true);
    const cc = parseRecipients(body.cc, false);
    const subject = body.subject.trim();
    if (!subject) throw badRequest('El asunto es requerido', 'VALIDATION_ERROR');
    if (!body.body.trim()) throw badRequest('El mensaje es requerido', 'VALIDATION_ERROR');
    const attachments = decodeAttachments(body.attachments);
    const saved = body.draftId ? await this.reader.draft(userId, body.draftId) : undefined;
    const account = saved ? await this.accountOf(saved) : await sendingAccount(this.accounts, userId, body.accountId);
    const common = { cc, attachments, track: body.track ?? account.trackDefault };
    let mails: Draft[] = [{ ...common, to, subject, body: body.body }];
    if (this.personalizer.needed(subject, body.body)) {
      const copies = await this.personalizer.copies(userId, to, subject, body.body, scopes);
      if (!body.allowUnresolved && copies.some((c) => c.unresolved.length > 0)) throw unresolvedError(copies);
      mails = copies.map((c) => ({ ...common, to: [c.recipient], subject: c.subject.trim() || subject, body: c.body.trim() ? c.body : body.body }));
    }
    const sent = await this.deliver(account, mails, ticket);
    if (saved) {
      // Sent already: a draft left behind is a nuisance, not a failed send.
      await this.reader.discardDraft(saved).catch((error: unknown) => this.log.warn({ err: error, accountId: account.id }, 'sent draft not removed'));
    }
    return sent;
  }

  private async sendReply(userId: string, id: string, body: ReplyBody, ticket: SendTicket): Promise<EmailSent> {
    if (!body.body.trim()) throw badRequest('El mensaje es requerido', 'VALIDATION_ERROR');
    const original = await this.reader.find(userId, id);
    const account = await this.accountOf(original);
    const own = account.email.toLowerCase();
    const to = [original.replyTo || original.fromAddr].filter(Boolean);
    const cc = body.all
      ? [...addressesIn(original.toAddrs), ...addressesIn(original.ccAddrs)].filter(
          (a) => a.toLowerCase() !== own && !to.some((t) => bareAddress(t).toLowerCase() === a.toLowerCase()),
        )
      : [];
    if (to.length === 0) throw badRequest('El correo original no tiene remitente al que responder', 'VALIDATION_ERROR');
    const header = `El ${dateText(original.sentAt)}, ${original.fromAddr} escribió:`;
    return this.deliver(account, [{
      to,
      cc,
      subject: prefixed('Re', original.subject),
      body: body.body,
      quoted: {
        html: `<p>${escapeHtml(header)}</p><blockquote style="margin:0 0 0 .8ex;border-left:1px solid #ccc;padding-left:1ex">${this.originalHtml(original)}</blockquote>`,
        text: `${header}\n${original.textBody.split('\n').map((line) => `> ${line}`).join('\n')}`,
      },
      attachments: [],
      inReplyTo: original.messageId ?? undefined,
      references: [original.refs, original.messageId].filter(Boolean).join(' ') || undefined,
      track: body.track ?? account.trackDefault,
    }], ticket);
  }

  private async sendForward(userId: string, id: string, body: ForwardBody, ticket: SendTicket): Promise<EmailSent> {
    const to = parseRecipients(body.to, true);
    const original = await this.reader.find(userId, id);
    const account = await this.accountOf(original);
    const kept = await this.messages.attachmentContents(original.id);
    // A big mail's attachments stay on its server: forwarding them would hold it whole, what the limit prevents.
    if (original.partial && kept.length > 0) {
      throw badRequest('Este correo es demasiado grande para reenviarlo con sus adjuntos: descárgalos y envíalos en un correo nuevo', 'MAIL_TOO_LARGE');
    }
    const attachments = kept.flatMap((a) => (a.content ? [{ filename: a.name, contentType: a.contentType, content: a.content }] : []));
    const lines = [
      '---------- Mensaje reenviado ----------',
      `De: ${original.fromAddr}`,
      `Fecha: ${dateText(original.sentAt)}`,
      `Asunto: ${original.subject}`,
      `Para: ${original.toAddrs}`,
    ];
    return this.deliver(account, [{
      to,
      cc: [],
      subject: prefixed('Fwd', original.subject),
      body: body.body.trim() ? body.body : ' ',
      quoted: {
        html: `<p>${lines.map(escapeHtml).join('<br>')}</p>${this.originalHtml(original)}`,
        text: `${lines.join('\n')}\n\n${original.textBody}`,
      },
      attachments,
      track: body.track ?? account.trackDefault,
    }], ticket);
  }

  private originalHtml(original: MessageRow): string {
    return original.htmlBody !== null ? sanitizeMailHtml(original.htmlBody, true).html : textToHtml(original.textBody);
  }

  private async accountOf(message: MessageRow): Promise<AccountRow> {
    const account = await this.accounts.byId(message.accountId);
    if (!account) throw badRequest('La cuenta de este correo ya no está conectada', 'NO_MAIL_ACCOUNT');
    return account;
  }

  /**
   * Sends each mail in turn. The first carries the ticket's id (what a retry with the key answers); each is
   * recorded (with the id its transport answered) once the transport accepted it, and the key is marked done with the last. A failure part-way
   * leaves the key claimed: repeating it would send the first copies again.
   */
  private async deliver(row: AccountRow, mails: Draft[], ticket: SendTicket): Promise<EmailSent> {
    const account = await this.credentials.open(row).catch(mailServerError);
    const raws: Buffer[] = [];
    for (const [index, draft] of mails.entries()) {
      const sentId = index === 0 ? ticket.sentId : randomUUID();
      const raw = await this.compose(row, draft, sentId);
      const recipients = [...draft.to, ...draft.cc].map(bareAddress);
      const { messageId } = await this.transport.send(account, { from: account.email, to: recipients }, raw).catch(mailServerError);
      ticket.accepted = true;
      await this.sql.begin(async (tx) => {
        await tx`insert into email.sent (id, user_id, account_id, provider, message_id)
          values (${sentId}, ${row.userId}, ${row.id}, ${row.provider}, ${messageId})`;
        await this.outbox.append(tx, [createEvent('email.message.sent', row.userId, { messageId: sentId, provider: row.provider })]);
        if (index === mails.length - 1) await ticket.done(tx);
      });
      raws.push(raw);
    }
    await this.fileInSent(account, raws);
    return { success: true, messageId: ticket.sentId };
  }

  private async compose(row: AccountRow, draft: Draft, sentId: string): Promise<Buffer> {
    const domain = row.email.split('@')[1] ?? 'localhost';
    const messageId = `<${sentId}@${domain}>`;
    const ownHtml = looksLikeHtml(draft.body) ? sanitizeMailHtml(draft.body, true).html : textToHtml(draft.body);
    const ownText = looksLikeHtml(draft.body) ? draft.body.replace(/<[^>]*>/g, '') : draft.body;
    let html = `<div>${ownHtml}</div>${draft.quoted ? `<br>${draft.quoted.html}` : ''}`;
    if (draft.track) html = addTracking(html, sentId, this.signer, this.trackBase);
    const text = draft.quoted ? `${ownText}\n\n${draft.quoted.text}` : ownText;

    return this.composer.compose({
      from: row.email,
      to: draft.to,
      cc: draft.cc,
      subject: draft.subject,
      text,
      html,
      messageId,
      inReplyTo: draft.inReplyTo,
      references: draft.references,
      attachments: draft.attachments,
      date: new Date(),
    });
  }

  /**
   * Gmail and Outlook keep a copy of what goes through their SMTP servers; other servers need it appended.
   * The mail is already sent: a failure here is logged, never reported as a failed send.
   */
  private async fileInSent(account: MailAccount, raws: Buffer[]): Promise<void> {
    try {
      await this.sync.serialize(account.id, async () => {
        await withMailbox(this.mailboxes, account, this.log, async (mailbox) => {
          if (account.provider === 'imap') {
            const sent = (await this.messages.folders(account.id)).get('sent')?.path;
            for (const raw of raws) if (sent) await mailbox.append(sent, raw, { read: true });
          }
        });
        await this.sync.syncNow(account, ['sent']);
      });
    } catch (error) {
      this.log.warn({ err: error instanceof MailConnectError ? error.message : error, accountId: account.id }, 'sent copy not filed');
    }
  }
}
