import type { AddressObject, ParsedMail } from 'mailparser';
import { EMAIL_PREVIEW_LENGTH } from '@asistente/contracts';

export interface ParsedAttachment {
  name: string;
  contentType: string;
  size: number;
  content: Buffer;
}

export interface ParsedMessage {
  messageId: string | null;
  inReplyTo: string | null;
  refs: string | null;
  from: string;
  to: string;
  cc: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
  preview: string;
  sentAt: Date;
  attachments: ParsedAttachment[];
  parseError: string | null;
}

// PostgreSQL refuses NUL in text: a hostile or broken mail must not stop the sync on it.
const clean = (value: string) => value.replaceAll('\u0000', '');

/** `Nombre <correo>, otro@x` — without the quotes mailparser puts around display names. */
function addresses(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return '';
  const entries = (Array.isArray(value) ? value : [value]).flatMap((group) => group.value);
  const text = entries
    .flatMap((entry) => (entry.group ? entry.group : [entry]))
    .map((entry) => (entry.name && entry.address ? `${entry.name} <${entry.address}>` : (entry.address ?? entry.name)))
    .filter(Boolean)
    .join(', ');
  return clean(text);
}

/** 50 characters of readable text: whitespace folded, for the list. */
export function previewOf(text: string): string {
  return Array.from(text.replace(/\s+/g, ' ').trim()).slice(0, EMAIL_PREVIEW_LENGTH).join('');
}

function fromParsed(mail: ParsedMail, fallbackDate: Date): ParsedMessage {
  const text = clean(mail.text ?? (mail.html ? mail.html.replace(/<[^>]*>/g, ' ') : ''));
  const refs = Array.isArray(mail.references) ? mail.references.join(' ') : (mail.references ?? null);
  return {
    messageId: mail.messageId ? clean(mail.messageId) : null,
    inReplyTo: mail.inReplyTo ? clean(mail.inReplyTo) : null,
    refs: refs ? clean(refs) : null,
    from: addresses(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    replyTo: mail.replyTo ? addresses(mail.replyTo) : null,
    subject: clean(mail.subject ?? ''),
    text,
    html: typeof mail.html === 'string' ? clean(mail.html) : null,
    preview: previewOf(text),
    sentAt: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : fallbackDate,
    attachments: mail.attachments.map((a, i) => ({
      name: clean(a.filename ?? `adjunto-${i + 1}`),
      contentType: a.contentType || 'application/octet-stream',
      size: a.size,
      content: a.content,
    })),
    parseError: null,
  };
}

/**
 * Parses one message from its source. A message mailparser cannot read is kept with what the raw headers
 * give (subject, from, date) and the reason, so one broken mail never stops a sync.
 */
export async function parseMessage(source: Buffer, fallbackDate: Date): Promise<ParsedMessage> {
  // Loaded by the first mail parsed, not with the service: ~21 MB resident an install without a mailbox never uses.
  const { simpleParser } = await import('mailparser');
  try {
    return fromParsed(await simpleParser(source, { skipImageLinks: true, skipTextToHtml: true }), fallbackDate);
  } catch (error) {
    const head = source.subarray(0, 64 * 1024).toString('latin1');
    const header = (name: string) => new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
    const text = clean(head.split(/\r?\n\r?\n/).slice(1).join('\n\n'));
    return {
      messageId: header('Message-ID') || null,
      inReplyTo: null,
      refs: null,
      from: clean(header('From')),
      to: clean(header('To')),
      cc: '',
      replyTo: null,
      subject: clean(header('Subject')),
      text,
      html: null,
      preview: previewOf(text),
      sentAt: fallbackDate,
      attachments: [],
      parseError: error instanceof Error ? error.message.slice(0, 500) : 'unreadable message',
    };
  }
}
