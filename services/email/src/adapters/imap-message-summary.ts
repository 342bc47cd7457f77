import { TextDecoder } from 'node:util';
import type { AttachmentPart } from '../domain/mailbox.js';
import { previewOf, type ParsedMessage } from '../domain/parse-message.js';
import type { FetchedMessage, MailAddress, MessageStructure } from './imap-types.js';

/** Bytes of the first text part fetched at sync time: plenty for a 50-character preview. */
export const PREVIEW_BYTES = 2048;

/** What a first sync asks the server for: no body, only what the list and a reply need. */
export const SUMMARY_QUERY = {
  uid: true,
  flags: true,
  envelope: true,
  bodyStructure: true,
  internalDate: true,
  size: true,
  headers: ['references'],
} as const;

export interface TextPart {
  /** IMAP part number (`1` for a single-part message). */
  key: string;
  html: boolean;
  encoding: string;
  charset: string;
}

const clean = (value: string) => value.replaceAll('\u0000', '');

function addresses(list: MailAddress[] | undefined): string {
  return clean(
    (list ?? [])
      .map((a) => (a.name && a.address ? `${a.name} <${a.address}>` : (a.address ?? a.name ?? '')))
      .filter(Boolean)
      .join(', '),
  );
}

const isAttachment = (node: MessageStructure) =>
  node.disposition?.toLowerCase() === 'attachment' ||
  (!node.childNodes && !node.type.startsWith('text/') && !node.type.startsWith('multipart/') && node.disposition?.toLowerCase() !== 'inline');

/** The leaves of the structure, depth first (a single-part message is its own leaf, part `1`). */
function leaves(node: MessageStructure): MessageStructure[] {
  if (node.childNodes?.length) return node.childNodes.flatMap(leaves);
  return [{ ...node, part: node.part ?? '1' }];
}

export function hasAttachments(structure: MessageStructure | undefined): boolean {
  return structure ? leaves(structure).some(isAttachment) : false;
}

/** Base64 carries 3 bytes in 4 characters, in lines of 76 plus CRLF. */
function decodedSize(node: MessageStructure): number {
  const encoded = node.size ?? 0;
  return node.encoding?.toLowerCase() === 'base64' ? Math.floor(((encoded * 76) / 78) * 0.75) : encoded;
}

/** The attachments the structure lists, named as a mail app shows them (mailparser's fallback name too). */
export function attachmentParts(structure: MessageStructure | undefined): AttachmentPart[] {
  if (!structure) return [];
  return leaves(structure)
    .filter(isAttachment)
    .map((node, i) => ({
      part: node.part ?? '1',
      name: clean(node.dispositionParameters?.filename ?? node.parameters?.name ?? `adjunto-${i + 1}`),
      contentType: node.type || 'application/octet-stream',
      size: decodedSize(node),
    }));
}

/** The part the preview is read from: the first plain-text part, else the first HTML one. */
export function previewPart(structure: MessageStructure | undefined): TextPart | undefined {
  if (!structure) return undefined;
  const texts = leaves(structure).filter((n) => !isAttachment(n));
  const node = texts.find((n) => n.type === 'text/plain') ?? texts.find((n) => n.type === 'text/html');
  if (!node?.part) return undefined;
  return {
    key: node.part,
    html: node.type === 'text/html',
    encoding: (node.encoding ?? '7bit').toLowerCase(),
    charset: node.parameters?.charset ?? 'utf-8',
  };
}

function decodeQuotedPrintable(text: string): Buffer {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft[i] === '=' ? soft.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(soft.charCodeAt(i) & 0xff);
  }
  return Buffer.from(bytes);
}

function decodeText(raw: Buffer, part: TextPart): string {
  let bytes = raw;
  if (part.encoding === 'base64') {
    const b64 = raw.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, '');
    bytes = Buffer.from(b64.slice(0, b64.length - (b64.length % 4)), 'base64');
  } else if (part.encoding === 'quoted-printable') bytes = decodeQuotedPrintable(raw.toString('latin1'));
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(part.charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  const text = decoder.decode(bytes);
  if (!part.html) return text;
  return text
    .replace(/<(style|script|head)[\s\S]*?(<\/\1>|$)/gi, ' ')
    .replace(/<[^>]*>?/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"');
}

/** `References:` from the fetched header block, unfolded. */
function references(headers: Buffer | undefined): string | null {
  if (!headers) return null;
  const match = /^references:[ \t]*((?:.*)(?:\r?\n[ \t].*)*)/im.exec(headers.toString('latin1'));
  const value = match?.[1]?.replace(/\s+/g, ' ').trim();
  return value ? clean(value) : null;
}

/** The server's INTERNALDATE (when it received the mail) as a Date, or undefined when it gave none or an unreadable one. */
export function internalDateOf(value: Date | string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * A message as the list and a reply need it, from the envelope, the structure and the start of its text:
 * the body and the attachments are fetched when the mail is opened.
 */
export function summaryOf(message: FetchedMessage, previewRaw: Buffer | undefined, part: TextPart | undefined): ParsedMessage {
  const envelope = message.envelope ?? {};
  const internal = message.internalDate instanceof Date ? message.internalDate : new Date(message.internalDate ?? Date.now());
  const date = envelope.date ? new Date(envelope.date) : undefined;
  const text = previewRaw && part ? clean(decodeText(previewRaw, part)) : '';
  return {
    messageId: envelope.messageId ? clean(envelope.messageId) : null,
    inReplyTo: envelope.inReplyTo ? clean(envelope.inReplyTo) : null,
    refs: references(message.headers),
    from: addresses(envelope.from),
    to: addresses(envelope.to),
    cc: addresses(envelope.cc),
    replyTo: envelope.replyTo?.length ? addresses(envelope.replyTo) : null,
    subject: clean(envelope.subject ?? ''),
    text: '',
    html: null,
    preview: previewOf(text),
    sentAt: date && !Number.isNaN(date.getTime()) ? date : internal,
    attachments: [],
    parseError: null,
  };
}

/** The one body part a fetch asked for (the server keys it with its byte range, e.g. `1]<0>`). */
export function fetchedPart(message: FetchedMessage): Buffer | undefined {
  return message.bodyParts ? [...message.bodyParts.values()][0] : undefined;
}
