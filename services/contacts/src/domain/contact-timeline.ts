import { calendarRoutes, emailRoutes, type PersonalTokenScope, scopesCover, TIMELINE_SECTION_SCOPES, whatsappRoutes } from '@asistente/contracts';
import type { Logger, ServiceCaller, ServiceClient } from '@asistente/kit';

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

/** An ISO instant as the timeline sorts it, or the date alone (an all-day event's YYYY-MM-DD). */
function when(value: string): string | undefined {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : date.toISOString();
}

/**
 * What the product knows of a person in the other services, asked on the
 * user's behalf through platform.services: WhatsApp messages by phone, mails
 * by address, calendar events the address attends. A service that is not
 * there, fails or is slow simply has no section: the page still shows the rest.
 */
export class ContactTimeline {
  constructor(
    private readonly services: Pick<ServiceClient, 'available' | 'call'>,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  /**
   * The sections the caller may see: a session (no scopes) all of them, a personal token those of the areas
   * its scopes cover; the others are not even asked for, so the timeline never widens what a token reaches.
   */
  async sections(caller: ServiceCaller, keys: { phones: string[]; emails: string[] }, scopes?: readonly PersonalTokenScope[]): Promise<TimelineSection[]> {
    const asks: Promise<TimelineSection | undefined>[] = [];
    // Each channel is the name of the service that holds it.
    const shown = (channel: TimelineChannel, keysOfIt: string[]) =>
      keysOfIt.length > 0 && scopesCover(scopes, TIMELINE_SECTION_SCOPES[channel]) && this.services.available(channel);
    if (shown('whatsapp', keys.phones)) asks.push(this.ask('whatsapp', () => this.whatsapp(caller, keys.phones)));
    if (shown('email', keys.emails)) asks.push(this.ask('email', () => this.mails(caller, keys.emails)));
    if (shown('calendar', keys.emails)) asks.push(this.ask('calendar', () => this.events(caller, keys.emails)));
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

  private async whatsapp(caller: ServiceCaller, phones: string[]): Promise<TimelineItem[]> {
    const answers = await Promise.all(
      phones.map((phoneNumber) =>
        this.services.call(whatsappRoutes.messages, caller, { query: { phoneNumber, limit: PER_CHANNEL }, timeoutMs: CALL_TIMEOUT_MS }),
      ),
    );
    return answers.flatMap((answer) => answer.data).flatMap((m): TimelineItem[] => {
      const at = when(m.timestamp);
      if (!at) return [];
      return [{ channel: 'whatsapp', id: m.id, at, title: m.message.trim() ? m.message : '(sin texto)', direction: m.type === 'outgoing' ? 'outgoing' : 'incoming' }];
    });
  }

  /** Mail from the contact (inbox) and the owner's to them (sent), by the whole address. */
  private async mails(caller: ServiceCaller, emails: string[]): Promise<TimelineItem[]> {
    const asks = emails.flatMap((address) =>
      (['inbox', 'sent'] as const).map(async (folder) => ({
        folder,
        answer: await this.services.call(emailRoutes.list, caller, { query: { address, folder, limit: PER_CHANNEL }, timeoutMs: CALL_TIMEOUT_MS }),
      })),
    );
    const seen = new Set<string>();
    return (await Promise.all(asks)).flatMap(({ folder, answer }) =>
      answer.data.flatMap((m): TimelineItem[] => {
        const at = when(m.createdAt);
        // A mail to two of the contact's addresses is listed for each.
        if (!at || seen.has(m.id)) return [];
        seen.add(m.id);
        return [{ channel: 'email', id: m.id, at, title: m.subject.trim() ? m.subject : '(sin asunto)', detail: m.preview, direction: folder === 'sent' ? 'outgoing' : 'incoming' }];
      }),
    );
  }

  private async events(caller: ServiceCaller, emails: string[]): Promise<TimelineItem[]> {
    const day = 86_400_000;
    const dateFrom = new Date(Date.now() - EVENT_WINDOW_DAYS.past * day).toISOString().slice(0, 10);
    const dateTo = new Date(Date.now() + EVENT_WINDOW_DAYS.future * day).toISOString().slice(0, 10);
    const answer = await this.services.call(calendarRoutes.events, caller, { query: { dateFrom, dateTo }, timeoutMs: CALL_TIMEOUT_MS });
    return answer
      .filter((e) => e.attendees.some((a) => emails.some((mail) => a.toLowerCase().includes(mail))))
      .flatMap((e): TimelineItem[] => {
        // The normalised event carries its start in startTime (an instant, or a date for all-day events).
        const at = when(e.startTime);
        if (!at) return [];
        return [{ channel: 'calendar', id: e.id, at, title: e.title.trim() ? e.title : '(sin título)', detail: e.location }];
      });
  }
}
