import type { ImapFlow } from 'imapflow';
import type { PartialBody } from '../domain/mailbox.js';
import { attachmentParts, previewPart } from './imap-message-summary.js';
import type { MessageStructure } from './imap-types.js';

/** How much of a big mail's text is kept: enough to read it, nothing like its attachments' size. */
export const PARTIAL_TEXT_BYTES = 1024 * 1024;
/** Fewer round trips than the usual 64 KB, still a small buffer per request. */
const TEXT_CHUNK_BYTES = 256 * 1024;

// PostgreSQL refuses NUL in text.
const clean = (value: string) => value.replaceAll('\u0000', '');

/**
 * A mail too large to fetch whole, as far as opening it needs: the first MB of its text part (decoded by
 * the client, which stops asking the server once it has that much) and the list of its attachments from the
 * structure. The attachments stay on the server until one is downloaded.
 */
export async function readPartialBody(client: ImapFlow, uid: number, structure: MessageStructure | undefined): Promise<PartialBody> {
  const attachments = attachmentParts(structure);
  const part = previewPart(structure);
  const download = part
    ? await client.download(String(uid), part.key, { uid: true, maxBytes: PARTIAL_TEXT_BYTES, chunkSize: TEXT_CHUNK_BYTES })
    : undefined;
  if (!part || !download?.content) return { text: '', html: null, attachments };
  const chunks: Buffer[] = [];
  for await (const chunk of download.content) chunks.push(chunk as Buffer);
  const decoded = clean(Buffer.concat(chunks).toString('utf8'));
  if (!part.html) return { text: decoded, html: null, attachments };
  return { text: decoded.replace(/<[^>]*>/g, ' '), html: decoded, attachments };
}
