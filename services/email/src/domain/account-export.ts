import { jsonArrayPart, type AccountExportPart, type KeysetSource } from '@asistente/kit';
import type { AccountExportRepository, ExportedAttachment, ExportedMail } from './account-export.repository.js';
import type { MailComposer } from './mail-composer.js';

/** Mails read per page: bodies can be long. */
const PAGE_MAILS = 100;

const key = (mail: ExportedMail) => `${mail.at}|${mail.id}`;

/** A file name part nothing can escape from: safe characters only, cut short. */
function safeName(name: string): string {
  const cleaned = name.replace(/[^\p{L}\p{N} ._-]/gu, '_').replace(/^\.+/, '_').slice(0, 120);
  return cleaned || 'adjunto';
}

function attachmentPath(attachment: ExportedAttachment): string {
  return `adjuntos/${attachment.messageId}/${attachment.id.slice(0, 8)}-${safeName(attachment.name)}`;
}

/** The mail as an .eml: its headers, both bodies and its stored attachments, as a mail program reads it. */
async function eml(composer: MailComposer, mail: ExportedMail, attachments: ExportedAttachment[]): Promise<string> {
  const raw = await composer.compose({
    from: mail.fromAddr,
    to: mail.toAddrs || undefined,
    cc: mail.ccAddrs || undefined,
    replyTo: mail.replyTo ?? undefined,
    subject: mail.subject,
    text: mail.textBody,
    html: mail.htmlBody ?? undefined,
    messageId: mail.messageId ?? undefined,
    inReplyTo: mail.inReplyTo ?? undefined,
    references: mail.refs ?? undefined,
    date: mail.sentAt,
    attachments: attachments.map((a) => ({ filename: a.name, contentType: a.contentType, content: a.content })),
  });
  return raw.toString('utf8');
}

function headersJson(mail: ExportedMail) {
  return {
    id: mail.id,
    account: mail.account,
    folder: mail.folder,
    messageId: mail.messageId,
    inReplyTo: mail.inReplyTo,
    from: mail.fromAddr,
    to: mail.toAddrs,
    cc: mail.ccAddrs,
    replyTo: mail.replyTo,
    subject: mail.subject,
    preview: mail.preview,
    isRead: mail.isRead,
    hasAttachments: mail.hasAttachments,
    date: mail.sentAt.toISOString(),
  };
}

/** A part over the user's mails, whole or not, in keyset pages; `pieces` turns one page into files. */
function mailsPart(repository: AccountExportRepository, whole: boolean, pieces: (mails: ExportedMail[]) => Promise<{ path: string; text?: string; base64?: string }[]>): AccountExportPart {
  return {
    async page(userId, cursor) {
      const mails = await repository.mails(userId, whole, cursor, PAGE_MAILS);
      const next = mails.length < PAGE_MAILS ? null : key(mails[mails.length - 1]!);
      return { pieces: await pieces(mails), next };
    },
  };
}

/**
 * The mail's share of "Descargar mis datos": an .eml per mail stored whole (`<folder>/<date>-<id>.eml`), the
 * headers of the others as JSON (`correos.json`, whose bodies were never downloaded), their attachments
 * that are stored (`adjuntos/<mail id>/…`) and the templates (`plantillas.json`). Account credentials and server settings are never read.
 */
export function emailExportParts(repository: AccountExportRepository, composer: MailComposer): AccountExportPart[] {
  const partial: KeysetSource<ExportedMail> = { rows: (userId, after, limit) => repository.mails(userId, false, after, limit), key };
  return [
    mailsPart(repository, true, async (mails) => {
      const attachments = await repository.attachments(mails.map((m) => m.id));
      return Promise.all(
        mails.map(async (mail) => ({
          path: `${mail.folder}/${mail.sentAt.toISOString().slice(0, 10)}-${mail.id}.eml`,
          text: await eml(composer, mail, attachments.filter((a) => a.messageId === mail.id)),
        })),
      );
    }),
    jsonArrayPart('correos.json', partial, headersJson, PAGE_MAILS),
    mailsPart(repository, false, async (mails) =>
      (await repository.attachments(mails.map((m) => m.id))).map((a) => ({ path: attachmentPath(a), base64: a.content.toString('base64') })),
    ),
    jsonArrayPart('plantillas.json', { rows: (userId, after, limit) => repository.templates(userId, after, limit), key: (t) => t.id }, (t) => t),
  ];
}
