// The Cloud API's webhook, as Meta documents it (`object: whatsapp_business_account`, entries of changes whose
// `value` carries `metadata.phone_number_id`, `contacts`, `messages` and `statuses`), read into the messaging
// port's words. Anything it does not know is left out, never a reason to refuse the webhook.
import type { IncomingMessage, MediaKind, Receipt, ReceiptStatus } from '@asistente/kit';

interface CloudMedia {
  id?: string;
  mime_type?: string;
  caption?: string;
  filename?: string;
}

export interface CloudMessage {
  id?: string;
  from?: string;
  timestamp?: string;
  type?: string;
  text?: { body?: string };
  image?: CloudMedia;
  video?: CloudMedia;
  audio?: CloudMedia;
  document?: CloudMedia;
  sticker?: CloudMedia;
  button?: { text?: string };
  interactive?: { button_reply?: { title?: string }; list_reply?: { title?: string } };
}

export interface CloudStatus {
  id?: string;
  status?: string;
  recipient_id?: string;
}

/** One change's `value`: what one number received or learned. */
export interface CloudChangeValue {
  messaging_product?: string;
  metadata?: { phone_number_id?: string; display_phone_number?: string };
  contacts?: { wa_id?: string; profile?: { name?: string } }[];
  messages?: CloudMessage[];
  statuses?: CloudStatus[];
}

export interface CloudWebhook {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: CloudChangeValue }[] }[];
}

/** The part of a webhook one workspace's number is concerned with. */
export interface NumberPart {
  phoneNumberId: string;
  values: CloudChangeValue[];
}

const RECEIPTS: Record<string, ReceiptStatus> = { sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' };
const MEDIA: readonly (readonly [MediaKind, 'image' | 'video' | 'audio' | 'document' | 'sticker'])[] = [
  ['image', 'image'],
  ['video', 'video'],
  ['audio', 'audio'],
  ['document', 'document'],
  // A sticker is an image (webp) to whoever reads the conversation.
  ['image', 'sticker'],
];

const WA_ID = /^\d{6,20}$/;

/** The `messages` changes of a webhook, grouped by the number they are for. */
export function partsOf(webhook: CloudWebhook): NumberPart[] {
  if (webhook.object !== 'whatsapp_business_account' || !Array.isArray(webhook.entry)) return [];
  const byNumber = new Map<string, CloudChangeValue[]>();
  for (const entry of webhook.entry) {
    for (const change of entry.changes ?? []) {
      const id = change.value?.metadata?.phone_number_id;
      if (change.field !== 'messages' || !change.value || typeof id !== 'string') continue;
      byNumber.set(id, [...(byNumber.get(id) ?? []), change.value]);
    }
  }
  return [...byNumber].map(([phoneNumberId, values]) => ({ phoneNumberId, values }));
}

export const messageIdsOf = (values: CloudChangeValue[]): string[] =>
  values.flatMap((v) => (v.messages ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string'));

export const hasStatuses = (values: CloudChangeValue[]): boolean => values.some((v) => (v.statuses ?? []).length > 0);

/** The customers' messages of these changes, as the intake takes them. */
export function incomingOf(values: CloudChangeValue[]): IncomingMessage[] {
  const found: IncomingMessage[] = [];
  for (const value of values) {
    const names = new Map((value.contacts ?? []).map((c) => [c.wa_id, c.profile?.name ?? null]));
    for (const message of value.messages ?? []) {
      const incoming = toIncoming(message, names);
      if (incoming) found.push(incoming);
    }
  }
  return found;
}

function toIncoming(message: CloudMessage, names: Map<string | undefined, string | null>): IncomingMessage | null {
  if (!message.id || !message.from || !WA_ID.test(message.from)) return null;
  const seconds = Number(message.timestamp);
  const at = Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
  let media: IncomingMessage['media'] = null;
  for (const [kind, field] of MEDIA) {
    const found = message[field];
    if (message.type !== field || !found) continue;
    media = { kind, mimeType: found.mime_type ?? 'application/octet-stream', fileName: found.filename ?? null, caption: found.caption ?? null, size: null };
  }
  // PostgreSQL cannot store NUL; nobody reads it either.
  const text = (message.text?.body ?? message.button?.text ?? message.interactive?.button_reply?.title ?? message.interactive?.list_reply?.title ?? media?.caption ?? '').replaceAll(
    '\u0000',
    '',
  );
  // Reactions, locations, contacts cards, unsupported types: not a conversation message the inbox shows.
  if (!text && !media) return null;
  return { id: message.id, handle: `+${message.from}`, name: names.get(message.from) ?? null, text, media, at };
}

/** What became of what was sent: Meta's statuses as receipts. */
export function receiptsOf(values: CloudChangeValue[]): Receipt[] {
  return values.flatMap((value) =>
    (value.statuses ?? []).flatMap((s) => {
      const status = s.status ? RECEIPTS[s.status] : undefined;
      return s.id && status ? [{ id: s.id, status }] : [];
    }),
  );
}
