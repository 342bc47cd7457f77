import { type ChannelMessage as WhatsAppChannelMessage, WHATSAPP_MESSAGES_BY_ID_MAX, whatsappRoutes } from '@asistente/contracts';
import { AppError, ServiceCallError, type ServiceCaller, type ServiceClient } from '@asistente/kit';
import type { Channel, ChannelMessage, MessageSource } from '../domain/channel.js';

/** A person's chat: a known number (`+…`) or one WhatsApp has not told yet (`lid:…`); groups and the rest are not. */
const PERSON_HANDLE = /^(\+|lid:)/;

const toMessage = (m: WhatsAppChannelMessage): ChannelMessage => ({
  id: m.id,
  handle: m.handle,
  name: m.chatName,
  direction: m.type,
  direct: PERSON_HANDLE.test(m.handle),
  text: m.message,
  at: new Date(m.timestamp),
});

/** The WhatsApp service as a channel of the inbox: its messages read by id, its sends addressed by handle. */
export class WhatsAppChannel implements Channel, MessageSource {
  readonly name = 'whatsapp' as const;

  constructor(private readonly services: ServiceClient) {}

  async messages(caller: ServiceCaller, ids: readonly string[]): Promise<ChannelMessage[]> {
    const found: ChannelMessage[] = [];
    for (let i = 0; i < ids.length; i += WHATSAPP_MESSAGES_BY_ID_MAX) {
      const page = await this.services.call(whatsappRoutes.messagesById, caller, {
        query: { ids: [...new Set(ids.slice(i, i + WHATSAPP_MESSAGES_BY_ID_MAX))].join(',') },
      });
      found.push(...page.data.map(toMessage));
    }
    return found;
  }

  async send(caller: ServiceCaller, handle: string, text: string, clientId: string, sender: 'member' | 'assistant' = 'member'): Promise<ChannelMessage> {
    const sent = await this.services
      .call(whatsappRoutes.send, caller, {
        body: { handle, type: 'text', text, origin: sender === 'assistant' ? 'ai' : 'app', clientMessageId: clientId },
      })
      .catch((error: unknown) => {
        throw inSpanish(error);
      });
    return { id: sent.id, handle, name: null, direction: 'outgoing', direct: PERSON_HANDLE.test(handle), text: sent.message, at: new Date(sent.timestamp) };
  }
}

/** WhatsApp's own refusal (its Spanish message) passes as it is; its failure is the channel's, said so. */
function inSpanish(error: unknown): unknown {
  if (!(error instanceof ServiceCallError)) return error;
  const body = error.body as { code?: unknown; message?: unknown } | null;
  if (error.statusCode < 500 && typeof body?.message === 'string') {
    return new AppError(error.statusCode, typeof body.code === 'string' ? body.code : 'CHANNEL_REFUSED', body.message);
  }
  return new AppError(503, 'CHANNEL_UNAVAILABLE', 'WhatsApp no está disponible en este momento. Inténtalo de nuevo en unos segundos');
}
