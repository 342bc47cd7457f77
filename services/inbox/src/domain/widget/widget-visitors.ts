import { randomUUID } from 'node:crypto';
import {
  WIDGET_ADDRESS_CALLS_PER_MINUTE,
  WIDGET_MESSAGES_PER_MINUTE,
  type WidgetMessage,
  type WidgetProfile,
  type WidgetProfileBody,
  type WidgetPublicConfig,
  type WidgetThread,
  type WidgetVisitor,
} from '@asistente/contracts';
import { AppError, badRequest, type IncomingMessage } from '@asistente/kit';
import type { ConversationsRepository } from '../conversations.repository.js';
import type { CustomerContacts } from '../customer-contact.js';
import type { EntriesRepository, EntryRow } from '../entries.repository.js';
import type { LiveSignals } from '../live-signals.js';
import type { VisitorTokens } from './visitor-tokens.js';
import type { WidgetBudget } from './widget-budget.js';
import type { VisitorRow, WidgetRow, WidgetsRepository } from './widgets.repository.js';

/** How many of the latest messages a visitor's widget shows when it opens. */
export const VISITOR_THREAD_LENGTH = 50;

export const WIDGET_UNKNOWN = 'Chat web no encontrado';
export const WIDGET_OFF = 'El chat de este negocio no está disponible ahora mismo';
export const ORIGIN_REFUSED = 'Este sitio web no puede usar este chat: el negocio no lo ha autorizado';
export const VISITOR_INVALID = 'Tu sesión de chat no es válida: recarga la página';
export const TOO_MANY_MESSAGES = 'Has enviado demasiados mensajes seguidos. Espera un momento y vuelve a intentarlo';
export const TOO_MANY_CALLS = 'Demasiadas peticiones desde tu conexión. Espera un momento y vuelve a intentarlo';
export const PROFILE_EMPTY = 'Déjanos al menos tu nombre, tu correo o tu teléfono';

/** A web visitor's conversation: channel `web`, handle `visitor:<id>`. */
export const visitorHandle = (visitorId: string): string => `visitor:${visitorId}`;

/** A visitor's widget found by its key, and who is calling: the visitor's signed id and the caller's address. */
export interface VisitorCall {
  widget: WidgetRow;
  visitor: VisitorRow;
}

/** A line of the visitor's thread, under the channel's id of it (what the web channel's sends answer). */
export const toWidgetMessage = (entry: EntryRow): WidgetMessage => ({
  id: entry.channelMessageId ?? entry.id,
  from: entry.direction === 'incoming' ? 'visitor' : 'business',
  text: entry.body,
  at: entry.at.toISOString(),
});

/**
 * The widget's side of a website chat: anyone on the internet calls it, so each call is bound to one widget
 * (its key, from an origin the owner allowed), one visitor (an id the server signed) and a budget per visitor
 * and per address. What a visitor writes enters the inbox as any channel's message does, through the intake.
 */
export class WidgetVisitors {
  constructor(
    private readonly deps: {
      widgets: WidgetsRepository;
      tokens: VisitorTokens;
      budget: WidgetBudget;
      /** The web channel's provider: what a visitor writes reaches the inbox through it. */
      channel: { arrived(workspaceId: string, message: IncomingMessage): Promise<void> };
      conversations: ConversationsRepository;
      entries: EntriesRepository;
      contacts: Pick<CustomerContacts, 'linkVisitor'>;
      signals: LiveSignals;
    },
  ) {}

  /** The widget of this key, for a page of `origin` (a browser always says it; a call without one is no page's). */
  async widget(key: string, origin: string | undefined): Promise<WidgetRow> {
    const widget = await this.deps.widgets.byKey(key);
    if (!widget) throw new AppError(404, 'WIDGET_NOT_FOUND', WIDGET_UNKNOWN);
    if (origin !== undefined && !widget.allowedOrigins.includes(origin)) throw new AppError(403, 'WIDGET_ORIGIN_REFUSED', ORIGIN_REFUSED);
    if (!widget.enabled) throw new AppError(403, 'WIDGET_DISABLED', WIDGET_OFF);
    return widget;
  }

  config(widget: WidgetRow): WidgetPublicConfig {
    return { name: widget.name, color: widget.color, greeting: widget.greeting };
  }

  async start(widget: WidgetRow, address: string): Promise<WidgetVisitor> {
    await this.spendAddress(widget, address);
    const visitorId = randomUUID();
    await this.deps.widgets.addVisitor(widget.userId, visitorId);
    return { visitorId, token: this.deps.tokens.sign(widget.publicKey, visitorId) };
  }

  /** The visitor a token names, if this widget signed it and the visitor is still there (an erasure ends them). */
  async visitor(widget: WidgetRow, token: string): Promise<VisitorRow> {
    const id = this.deps.tokens.verify(widget.publicKey, token);
    const visitor = id ? await this.deps.widgets.visitor(widget.userId, id) : undefined;
    if (!visitor) throw new AppError(401, 'VISITOR_INVALID', VISITOR_INVALID);
    return visitor;
  }

  /** The latest messages, oldest first: the visitor's and the business's, never the team's notes or suggestions. */
  async thread({ widget, visitor }: VisitorCall): Promise<WidgetThread> {
    const conversation = await this.deps.conversations.findByHandle(widget.userId, 'web', visitorHandle(visitor.id));
    if (!conversation) return { messages: [] };
    return { messages: (await this.deps.entries.lastMessages(conversation.id, VISITOR_THREAD_LENGTH)).map(toWidgetMessage) };
  }

  async write({ widget, visitor }: VisitorCall, text: string, address: string): Promise<WidgetMessage> {
    await this.spendAddress(widget, address);
    await this.deps.budget.spend(widget.userId, `visitor:${visitor.id}`, WIDGET_MESSAGES_PER_MINUTE, TOO_MANY_MESSAGES);
    const message: IncomingMessage = { id: randomUUID(), handle: visitorHandle(visitor.id), name: visitor.name, text, media: null, at: new Date() };
    await this.deps.channel.arrived(widget.userId, message);
    return { id: message.id, from: 'visitor', text, at: message.at.toISOString() };
  }

  /** The visitor's name, email or phone: kept with them, linked to a contact (found or created), shown on their conversation. */
  async profile({ widget, visitor }: VisitorCall, body: Omit<WidgetProfileBody, 'token'>, address: string): Promise<WidgetProfile> {
    await this.spendAddress(widget, address);
    const details = { name: clean(body.name), email: clean(body.email)?.toLowerCase() ?? null, phone: phoneOf(body.phone) };
    if (!details.name && !details.email && !details.phone) throw badRequest(PROFILE_EMPTY, 'PROFILE_EMPTY');
    const contactId = (await this.deps.contacts.linkVisitor(widget.userId, details)) ?? visitor.contactId;
    await this.deps.widgets.saveProfile(widget.userId, visitor.id, { ...details, contactId });
    const conversation = await this.deps.conversations.findByHandle(widget.userId, 'web', visitorHandle(visitor.id));
    if (conversation) {
      await this.deps.conversations.setCustomer(conversation.id, { name: details.name, contactId });
      this.deps.signals.changed(widget.userId, conversation.id);
    }
    return { ...details, contactLinked: contactId !== null };
  }

  private spendAddress(widget: WidgetRow, address: string): Promise<void> {
    return this.deps.budget.spend(widget.userId, `address:${widget.publicKey}:${address}`, WIDGET_ADDRESS_CALLS_PER_MINUTE, TOO_MANY_CALLS);
  }
}

function clean(value: string | undefined): string | null {
  const text = value?.trim();
  return text ? text : null;
}

/** The number as the inbox's handles write it when it has its country code (`+34611222333`), else as typed. */
function phoneOf(value: string | undefined): string | null {
  const text = clean(value);
  if (!text) return null;
  return text.startsWith('+') ? `+${text.replace(/\D/g, '')}` : text;
}
