import type { ImapFlow } from 'imapflow';
import type { MessageSummary } from '../domain/mailbox.js';
import { fetchedPart, hasAttachments, internalDateOf, PREVIEW_BYTES, previewPart, SUMMARY_QUERY, summaryOf, type TextPart } from './imap-message-summary.js';

/**
 * Envelope, flags and structure of a batch, plus the start of each message's first text part for the
 * preview: `1` in one go (single-part and most multipart/alternative mail), other parts in a second fetch
 * per part number. The body itself is fetched when the mail is opened.
 */
export async function fetchSummaries(client: ImapFlow, batch: number[]): Promise<MessageSummary[]> {
  if (batch.length === 0) return [];
  const fetched = await client.fetchAll(
    batch.join(','),
    { ...SUMMARY_QUERY, headers: [...SUMMARY_QUERY.headers], bodyParts: [{ key: '1', start: 0, maxLength: PREVIEW_BYTES }] },
    { uid: true },
  );
  const elsewhere = new Map<string, number[]>();
  const parts = new Map<number, TextPart | undefined>();
  for (const message of fetched) {
    const part = previewPart(message.bodyStructure);
    parts.set(message.uid, part);
    if (part && part.key !== '1') elsewhere.set(part.key, [...(elsewhere.get(part.key) ?? []), message.uid]);
  }
  const previews = new Map<number, Buffer | undefined>();
  for (const [key, uids] of elsewhere) {
    const rows = await client.fetchAll(uids.join(','), { uid: true, bodyParts: [{ key, start: 0, maxLength: PREVIEW_BYTES }] }, { uid: true });
    for (const row of rows) previews.set(row.uid, fetchedPart(row));
  }
  return fetched.map((message) => {
    const part = parts.get(message.uid);
    const raw = part?.key === '1' ? fetchedPart(message) : previews.get(message.uid);
    return {
      uid: message.uid,
      isRead: message.flags?.has('\\Seen') ?? false,
      parsed: summaryOf(message, raw, part),
      hasAttachments: hasAttachments(message.bodyStructure),
      arrivedAt: internalDateOf(message.internalDate),
    };
  });
}
