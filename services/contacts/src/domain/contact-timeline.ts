import type { Logger, ServiceClient } from '@asistente/kit';

export type TimelineChannel = 'whatsapp' | 'email' | 'calendar';

export interface TimelineItem {
  channel: TimelineChannel;
  id: string;
  /** ISO date-time, or the date alone for an all-day event. */
  at: string;
  title: string;
  detail?: string;
  direction?: 'incoming' | 'outgoing';
}

export interface TimelineSection {
  channel: TimelineChannel;
  items: TimelineItem[];
}

/** Each sibling gets this long; past it its section is left out rather than delaying the page. */
const CALL_TIMEOUT_MS = 3000;
const PER_CHANNEL = 30;
/** Events looked at around today for meetings with the contact. */
const EVENT_WINDOW_DAYS = { past: 180, future: 90 };

type Json = Record<string, unknown>;

function list(body: unknown): Json[] {
  if (Array.isArray(body)) return body as Json[];
  const object = (body ?? {}) as Json;
  for (const key of ['data', 'emails', 'events', 'messages', 'items']) {
    if (Array.isArray(object[key])) return object[key] as Json[];
  }
  return [];
}

const text = (...values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? '';

function when(value: unknown): string | undefined {
  if (typeof value === 'number') return new Date(value < 1e12 ? value * 1000 : value).toISOString();
  if (typeof value !== 'string' || !value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : date.toISOString();
}

function attendeeEmails(event: Json): string[] {
  const attendees = Array.isArray(event.attendees) ? event.attendees : [];
  return attendees
    .map((a) => (typeof a === 'string' ? a : text((a as Json)?.email, (a as Json)?.address)))
    .map((a) => a.toLowerCase());
}

/**
 * What the product knows of a person in the other services, asked on the
 * user's behalf through platform.services: WhatsApp messages by phone, mails
 * by address, calendar events the address attends. A service that is not
 * there, fails or is slow simply has no section: the page still shows the rest.
 */
export class ContactTimeline {
  constructor(
    private readonly services: Pick<ServiceClient, 'available' | 'request'>,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  async sections(userId: string, keys: { phones: string[]; emails: string[] }): Promise<TimelineSection[]> {
    const asks: Promise<TimelineSection | undefined>[] = [];
    if (keys.phones.length && this.services.available('whatsapp')) asks.push(this.ask('whatsapp', () => this.whatsapp(userId, keys.phones)));
    if (keys.emails.length && this.services.available('email')) asks.push(this.ask('email', () => this.mails(userId, keys.emails)));
    if (keys.emails.length && this.services.available('calendar')) asks.push(this.ask('calendar', () => this.events(userId, keys.emails)));
    return (await Promise.all(asks)).filter((s): s is TimelineSection => s !== undefined);
  }

  private async ask(channel: TimelineChannel, load: () => Promise<TimelineItem[]>): Promise<TimelineSection | undefined> {
    try {
      const items = (await load()).sort((a, b) => b.at.localeCompare(a.at)).slice(0, PER_CHANNEL);
      return { channel, items };
    } catch (error) {
      this.log.warn({ err: error, channel }, 'contact timeline: a section is left out');
      return undefined;
    }
  }

  private async whatsapp(userId: string, phones: string[]): Promise<TimelineItem[]> {
    const answers = await Promise.all(
      phones.map((phoneNumber) =>
        this.services.request<unknown>('whatsapp', userId, '/whatsapp/messages', {
          query: { phoneNumber, limit: PER_CHANNEL },
          timeoutMs: CALL_TIMEOUT_MS,
        }),
      ),
    );
    return answers.flatMap(list).flatMap((m): TimelineItem[] => {
      const at = when(m.timestamp ?? m.createdAt);
      if (!at) return [];
      const outgoing = m.isFromMe === true || m.type === 'outgoing' || m.direction === 'outgoing';
      return [{ channel: 'whatsapp', id: text(m.id, m.messageId), at, title: text(m.message, m.body, m.caption, m.text) || '(sin texto)', direction: outgoing ? 'outgoing' : 'incoming' }];
    });
  }

  /** Mail from the contact (inbox) and the owner's to them (sent), by the whole address. */
  private async mails(userId: string, emails: string[]): Promise<TimelineItem[]> {
    const asks = emails.flatMap((address) =>
      (['inbox', 'sent'] as const).map(async (folder) => ({
        folder,
        answer: await this.services.request<unknown>('email', userId, '/emails', { query: { address, folder, limit: PER_CHANNEL }, timeoutMs: CALL_TIMEOUT_MS }),
      })),
    );
    const seen = new Set<string>();
    return (await Promise.all(asks)).flatMap(({ folder, answer }) =>
      list(answer).flatMap((m): TimelineItem[] => {
        const at = when(m.date ?? m.receivedAt ?? m.sentAt ?? m.createdAt);
        const id = text(m.id, m.messageId);
        // A mail to two of the contact's addresses is listed for each.
        if (!at || seen.has(id)) return [];
        seen.add(id);
        return [{ channel: 'email', id, at, title: text(m.subject) || '(sin asunto)', detail: text(m.snippet, m.preview), direction: folder === 'sent' ? 'outgoing' : 'incoming' }];
      }),
    );
  }

  private async events(userId: string, emails: string[]): Promise<TimelineItem[]> {
    const day = 86_400_000;
    const dateFrom = new Date(Date.now() - EVENT_WINDOW_DAYS.past * day).toISOString().slice(0, 10);
    const dateTo = new Date(Date.now() + EVENT_WINDOW_DAYS.future * day).toISOString().slice(0, 10);
    const answer = await this.services.request<unknown>('calendar', userId, '/events', { query: { dateFrom, dateTo }, timeoutMs: CALL_TIMEOUT_MS });
    return list(answer)
      .filter((e) => attendeeEmails(e).some((a) => emails.some((mail) => a.includes(mail))))
      .flatMap((e): TimelineItem[] => {
        const start = typeof e.start === 'object' && e.start ? (e.start as Json) : {};
        // The normalised event carries its start in startTime (an instant, or a date for all-day events).
        const at = when(e.startTime) ?? when(e.startDate) ?? when(start.dateTime ?? start.date);
        if (!at) return [];
        return [{ channel: 'calendar', id: text(e.id), at, title: text(e.title, e.summary, e.subject) || '(sin título)', detail: text(e.location) }];
      });
  }
}
