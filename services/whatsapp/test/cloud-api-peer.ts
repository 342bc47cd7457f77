// A local peer of WhatsApp's Cloud API (Meta's Graph API) that speaks its documented shapes: the phone number's
// fields, message templates, media uploads, message sends (text, template, image, document, audio, video) and
// its errors (OAuthException 190, GraphMethodException 100, 131047 outside the window). It also plays the
// customers' side: a customer writes (a webhook signed with the app secret, posted to the service), and a
// message they received is delivered or read (a status webhook, even one racing the send's answer:
// beforeAnswer). Reusable by any harness (the messaging conformance suite included): it needs only where to
// post webhooks.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, randomBytes } from 'node:crypto';

export interface PeerNumber {
  phoneNumberId: string;
  businessAccountId: string;
  token: string;
  displayPhone: string;
  verifiedName: string;
  qualityRating: string;
}

export interface PeerTemplate {
  name: string;
  language: string;
  category: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED';
  body: string;
}

/** What a customer received: one accepted POST /{phone-number-id}/messages. */
export interface Delivered {
  id: string;
  phoneNumberId: string;
  to: string;
  type: string;
  text: string | null;
  template: { name: string; language: string; variables: string[] } | null;
  media: { id: string; caption: string | null; filename: string | null } | null;
}

export interface UploadedFile {
  id: string;
  phoneNumberId: string;
  mimeType: string;
  fileName: string | null;
  size: number;
}

/** Where the peer posts its webhooks (the service's POST /api/whatsapp/cloud/webhook), with the answer's status. */
export type WebhookTarget = (body: string, headers: Record<string, string>) => Promise<number>;

export interface CustomerMessage {
  from: string;
  name?: string;
  text?: string;
  image?: { caption?: string; mimeType?: string };
  document?: { caption?: string; filename?: string; mimeType?: string };
  audio?: { mimeType?: string };
  video?: { caption?: string; mimeType?: string };
  /** Meta's message id; a fresh one by default. */
  id?: string;
  /** Seconds since the epoch; now by default. */
  timestamp?: number;
}

export const PEER_NUMBER: PeerNumber = {
  phoneNumberId: '106540352242922',
  businessAccountId: '102290129340398',
  token: 'EAAGpeerTestToken0123456789abcdef',
  displayPhone: '+34 910 00 00 00',
  verifiedName: 'Ferretería Norte',
  qualityRating: 'GREEN',
};

export const PEER_TEMPLATES: PeerTemplate[] = [
  { name: 'recordatorio_cita', language: 'es', category: 'UTILITY', status: 'APPROVED', body: 'Hola {{1}}, te recordamos tu cita del {{2}}.' },
  { name: 'hola', language: 'es', category: 'MARKETING', status: 'APPROVED', body: '¡Hola! ¿En qué podemos ayudarte?' },
  { name: 'oferta_pendiente', language: 'es', category: 'MARKETING', status: 'PENDING', body: 'Oferta {{1}}' },
];

const wamid = () => `wamid.HBgL${randomBytes(18).toString('base64url')}`;

/** Meta's bodies escape every non-ASCII character (`\u00e1`): what it signs is that ASCII text. */
export const metaJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const signatureOf = (body: string, appSecret: string): string => `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;

export class CloudApiPeer {
  readonly numbers = new Map<string, PeerNumber>();
  readonly templates: PeerTemplate[] = [...PEER_TEMPLATES];
  readonly delivered: Delivered[] = [];
  readonly uploads: UploadedFile[] = [];
  /** Every request, in order (method and path). */
  readonly requests: { method: string; path: string }[] = [];
  /** While true, every call answers 503 (Meta unavailable). */
  down = false;
  /** How many of the next requests answer 503 (Meta unavailable for a moment), whatever they ask. */
  unavailableFor = 0;
  /** Numbers whose customers' windows Meta considers closed: sends of free text are refused with 131047. */
  readonly closedWindows = new Set<string>();
  /**
   * Runs after a send is accepted and before its answer leaves (Meta's status webhook racing the answer that
   * carries the message's id): the answer waits for it.
   */
  beforeAnswer: ((sent: Delivered) => Promise<void>) | undefined;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly appSecret: string,
    private target: WebhookTarget | undefined,
  ) {}

  static async start(options: { appSecret: string; target?: WebhookTarget; number?: PeerNumber }): Promise<CloudApiPeer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const peer = new CloudApiPeer(server, `http://127.0.0.1:${port}`, options.appSecret, options.target);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => void peer.handle(request, response));
    const number = options.number ?? PEER_NUMBER;
    peer.numbers.set(number.phoneNumberId, number);
    return peer;
  }

  /** Where webhooks go from now on (the harness's service, once it is built). */
  postTo(target: WebhookTarget): void {
    this.target = target;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** What `to` (digits) received, oldest first; everyone's without `to`. */
  received(to?: string): Delivered[] {
    return to ? this.delivered.filter((d) => d.to === to) : [...this.delivered];
  }

  /** A customer writes to the number: the webhook Meta would post, signed, to the service. Answers the message id and the HTTP status. */
  async customerWrites(message: CustomerMessage, number: PeerNumber = PEER_NUMBER): Promise<{ id: string; status: number }> {
    const id = message.id ?? wamid();
    const body = this.messagesWebhook(number, [this.cloudMessage({ ...message, id })], [{ wa_id: message.from, profile: { name: message.name ?? 'Cliente' } }]);
    return { id, status: await this.post(body) };
  }

  /** The webhook a customer's message makes, as text (for tests that post it twice, unsigned or re-signed). */
  customerWebhook(message: CustomerMessage, number: PeerNumber = PEER_NUMBER): { id: string; body: string } {
    const id = message.id ?? wamid();
    return { id, body: this.messagesWebhook(number, [this.cloudMessage({ ...message, id })], [{ wa_id: message.from, profile: { name: message.name ?? 'Cliente' } }]) };
  }

  /** What became of a message the service sent (its `wamid`): Meta's status webhook. */
  async status(messageId: string, status: 'sent' | 'delivered' | 'read' | 'failed', number: PeerNumber = PEER_NUMBER): Promise<number> {
    const sent = this.delivered.find((d) => d.id === messageId);
    const value = {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: number.displayPhone.replace(/\D/g, ''), phone_number_id: number.phoneNumberId },
      statuses: [
        {
          id: messageId,
          status,
          timestamp: String(Math.floor(Date.now() / 1000)),
          recipient_id: sent?.to ?? '0',
          ...(status === 'failed' ? { errors: [{ code: 131026, title: 'Message undeliverable' }] } : {}),
        },
      ],
    };
    return this.post(metaJson({ object: 'whatsapp_business_account', entry: [{ id: number.businessAccountId, changes: [{ field: 'messages', value }] }] }));
  }

  /** Posts a webhook body signed with `secret` (the app's own by default; null: unsigned). */
  async post(body: string, secret: string | null = this.appSecret): Promise<number> {
    if (!this.target) throw new Error('the peer has nowhere to post webhooks: call postTo() first');
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (secret !== null) headers['x-hub-signature-256'] = signatureOf(body, secret);
    return this.target(body, headers);
  }

  private messagesWebhook(number: PeerNumber, messages: unknown[], contacts: unknown[]): string {
    const value = {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: number.displayPhone.replace(/\D/g, ''), phone_number_id: number.phoneNumberId },
      contacts,
      messages,
    };
    return metaJson({ object: 'whatsapp_business_account', entry: [{ id: number.businessAccountId, changes: [{ field: 'messages', value }] }] });
  }

  private cloudMessage(m: CustomerMessage & { id: string }): Record<string, unknown> {
    const base = { from: m.from, id: m.id, timestamp: String(m.timestamp ?? Math.floor(Date.now() / 1000)) };
    const mediaId = () => String(1_000_000_000 + Math.floor(Math.random() * 1e9));
    const sha256 = randomBytes(32).toString('base64');
    if (m.image) return { ...base, type: 'image', image: { caption: m.image.caption, mime_type: m.image.mimeType ?? 'image/jpeg', sha256, id: mediaId() } };
    if (m.document) return { ...base, type: 'document', document: { caption: m.document.caption, filename: m.document.filename ?? 'archivo.pdf', mime_type: m.document.mimeType ?? 'application/pdf', sha256, id: mediaId() } };
    if (m.audio) return { ...base, type: 'audio', audio: { mime_type: m.audio.mimeType ?? 'audio/ogg; codecs=opus', sha256, id: mediaId(), voice: true } };
    if (m.video) return { ...base, type: 'video', video: { caption: m.video.caption, mime_type: m.video.mimeType ?? 'video/mp4', sha256, id: mediaId() } };
    return { ...base, type: 'text', text: { body: m.text ?? '' } };
  }

  // --- The Graph API side ---

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    this.requests.push({ method: request.method ?? 'GET', path: url.pathname });
    const body = await readBody(request);
    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };
    const unavailable = this.down || this.unavailableFor > 0;
    if (this.unavailableFor > 0) this.unavailableFor--;
    if (unavailable) return send(503, { error: { message: 'Service temporarily unavailable', type: 'OAuthException', code: 2, is_transient: true } });
    const [, version, id, edge] = url.pathname.split('/');
    if (!version?.startsWith('v') || !id) return send(400, graphError(100, 'Unknown path components', 'OAuthException'));
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const number = this.numbers.get(id) ?? [...this.numbers.values()].find((n) => n.businessAccountId === id);
    if (!token || ![...this.numbers.values()].some((n) => n.token === token)) return send(401, graphError(190, 'Invalid OAuth access token - Cannot parse access token', 'OAuthException'));
    if (!number) return send(400, graphError(100, `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 'GraphMethodException'));
    if (number.token !== token) return send(403, graphError(200, 'Permissions error', 'OAuthException'));

    if (request.method === 'GET' && !edge && number.phoneNumberId === id) {
      const fields = (url.searchParams.get('fields') ?? '').split(',');
      const all: Record<string, string> = { display_phone_number: number.displayPhone, verified_name: number.verifiedName, quality_rating: number.qualityRating };
      return send(200, { ...Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]])), id });
    }
    if (request.method === 'GET' && edge === 'message_templates' && number.businessAccountId === id) {
      const status = url.searchParams.get('status');
      const data = this.templates
        .filter((t) => !status || t.status === status)
        .map((t, i) => ({ name: t.name, language: t.language, status: t.status, category: t.category, id: String(9000 + i), components: [{ type: 'BODY', text: t.body }] }));
      return send(200, { data, paging: { cursors: { before: 'MAZDZD', after: 'MjQZD' } } });
    }
    if (request.method === 'POST' && edge === 'media' && number.phoneNumberId === id) return this.upload(request, body, number, send);
    if (request.method === 'POST' && edge === 'messages' && number.phoneNumberId === id) return this.message(body, number, send);
    return send(400, graphError(100, 'Unsupported request', 'GraphMethodException'));
  }

  private upload(request: IncomingMessage, body: Buffer, number: PeerNumber, send: (status: number, payload: unknown) => void): void {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(request.headers['content-type'] ?? '');
    if (!boundary) return send(400, graphError(100, 'Param file must be a file with one of the following types…', 'OAuthException'));
    const parts = parseMultipart(body, boundary[1] ?? boundary[2]!);
    const file = parts.find((p) => p.name === 'file');
    const product = parts.find((p) => p.name === 'messaging_product')?.data.toString();
    if (!file || product !== 'whatsapp') return send(400, graphError(100, 'The parameter messaging_product is required.', 'OAuthException'));
    const id = String(2_000_000_000 + this.uploads.length);
    this.uploads.push({ id, phoneNumberId: number.phoneNumberId, mimeType: file.type ?? 'application/octet-stream', fileName: file.filename ?? null, size: file.data.length });
    send(200, { id });
  }

  private async message(body: Buffer, number: PeerNumber, send: (status: number, payload: unknown) => void): Promise<void> {
    let request: Record<string, unknown>;
    try {
      request = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      return send(400, graphError(100, 'Invalid JSON', 'OAuthException'));
    }
    const to = typeof request.to === 'string' ? request.to : '';
    const type = typeof request.type === 'string' ? request.type : '';
    if (request.messaging_product !== 'whatsapp') return send(400, graphError(100, 'The parameter messaging_product is required.', 'OAuthException'));
    if (!/^\d{6,20}$/.test(to)) return send(400, graphError(131009, 'Parameter value is not valid', 'OAuthException'));
    const id = wamid();
    const entry: Delivered = { id, phoneNumberId: number.phoneNumberId, to, type, text: null, template: null, media: null };
    if (type === 'text') {
      if (this.closedWindows.has(to)) return send(400, graphError(131047, 'Re-engagement message', 'OAuthException'));
      entry.text = (request.text as { body?: string } | undefined)?.body ?? null;
      if (!entry.text) return send(400, graphError(100, 'The parameter text[body] is required.', 'OAuthException'));
    } else if (type === 'template') {
      const template = request.template as { name?: string; language?: { code?: string }; components?: { type: string; parameters?: { text?: string }[] }[] };
      const known = this.templates.find((t) => t.name === template.name && t.language === template.language?.code && t.status === 'APPROVED');
      if (!known) return send(404, graphError(132001, 'Template name does not exist in the translation', 'OAuthException'));
      const variables = (template.components ?? []).filter((c) => c.type === 'body').flatMap((c) => (c.parameters ?? []).map((p) => p.text ?? ''));
      entry.template = { name: known.name, language: known.language, variables };
    } else if (['image', 'document', 'audio', 'video'].includes(type)) {
      if (this.closedWindows.has(to)) return send(400, graphError(131047, 'Re-engagement message', 'OAuthException'));
      const media = request[type] as { id?: string; caption?: string; filename?: string };
      if (!media?.id || !this.uploads.some((u) => u.id === media.id)) return send(400, graphError(131053, 'Media upload error', 'OAuthException'));
      entry.media = { id: media.id, caption: media.caption ?? null, filename: media.filename ?? null };
    } else return send(400, graphError(100, `Unsupported message type ${type}`, 'OAuthException'));
    this.delivered.push(entry);
    await this.beforeAnswer?.(entry);
    send(200, { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id }] });
  }
}

function graphError(code: number, message: string, type: string) {
  return { error: { message, type, code, fbtrace_id: randomBytes(8).toString('base64url') } };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Part {
  name: string | null;
  filename: string | null;
  type: string | null;
  data: Buffer;
}

function parseMultipart(body: Buffer, boundary: string): Part[] {
  const parts: Part[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const chunk = body.subarray(start + delimiter.length + 2, next - 2);
    const split = chunk.indexOf('\r\n\r\n');
    const head = chunk.subarray(0, split).toString();
    parts.push({
      name: /name="([^"]*)"/.exec(head)?.[1] ?? null,
      filename: /filename="([^"]*)"/.exec(head)?.[1] ?? null,
      type: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? null,
      data: chunk.subarray(split + 4),
    });
    start = next;
  }
  return parts;
}

/** A target that posts into a Fastify app in-process (no port), as Meta would over the network. */
export function injectInto(app: { inject(options: { method: 'POST'; url: string; payload: string; headers: Record<string, string> }): Promise<{ statusCode: number }> }): WebhookTarget {
  return async (body, headers) => (await app.inject({ method: 'POST', url: '/api/whatsapp/cloud/webhook', payload: body, headers })).statusCode;
}
