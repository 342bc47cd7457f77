import type { InternalSource } from '@asistente/contracts';
import { LruMap } from '@asistente/kit';
import { calendarSource } from './calendar.tools.js';
import { contactsSource } from './contacts.tools.js';
import { bookingSource } from './customer/booking.tools.js';
import { customerChatSource } from './customer/chat.tools.js';
import { customerContactSource } from './customer/contact.tools.js';
import { customerMailSource } from './customer/mail.tools.js';
import { customerCalendarSource } from './customer/meetings.tools.js';
import { emailsSource } from './emails.tools.js';
import type { AssistantTool, ToolContext, ToolSource } from './tool.js';
import { whatsappSource } from './whatsapp.tools.js';

/** The owner's tools: search and read across each source, as far as the owner's token reaches. */
const OWNER_SOURCES: Record<InternalSource, ToolSource> = {
  contacts: contactsSource,
  whatsapp: whatsappSource,
  emails: emailsSource,
  calendar: calendarSource,
};

/**
 * A customer run's tools, bound to that customer by the run's reach: none takes an argument that names a
 * contact, a chat or an address, so no answer of the model can widen them.
 */
const CUSTOMER_SOURCES: Record<InternalSource, ToolSource> = {
  contacts: customerContactSource,
  whatsapp: customerChatSource,
  emails: customerMailSource,
  calendar: customerCalendarSource,
};

/** How long a source that answered "usable" is taken at its word before it is asked again. */
const USABLE_TTL_MS = 30_000;
/** User-and-source answers remembered at most (a few bytes each). */
const USABLE_REMEMBERED = 10_000;

/**
 * Remembers, per user and source, that the source answered usable, for USABLE_TTL_MS. Only the positive
 * answer is kept: a source the owner just connected is offered on the next run, and one that went away
 * meanwhile only makes a tool call answer an error the model can read.
 */
export class UsableSources {
  /** Bounded: a replica serving many users keeps the recent ones, not every user it ever answered. */
  private readonly seen = new LruMap<number>(USABLE_REMEMBERED);

  async check(source: ToolSource, context: ToolContext): Promise<boolean> {
    const key = `${context.workspaceId}/${source.name}`;
    const until = this.seen.get(key);
    if (until !== undefined && until > Date.now()) return true;
    const usable = await source.isAvailable(context).catch(() => false);
    if (usable) this.seen.set(key, Date.now() + USABLE_TTL_MS);
    else this.seen.delete(key);
    return usable;
  }
}

/**
 * The tools of the configured sources whose service answers that they are usable for this user, asked in
 * parallel. A sibling that is not mounted, answers 404/503 or is not connected is simply not offered.
 */
export async function offeredTools(
  configured: readonly InternalSource[],
  context: ToolContext,
  options: { booking: boolean },
  usable: UsableSources = new UsableSources(),
): Promise<AssistantTool[]> {
  const table = context.reach.kind === 'customer' ? CUSTOMER_SOURCES : OWNER_SOURCES;
  const sources = configured.map((name) => table[name]);
  const answers = await Promise.all(sources.map((source) => usable.check(source, context)));
  const offered = sources.filter((_, i) => answers[i]);
  const tools = offered.flatMap((source) => source.tools);
  // Booking is for a customer's chat and rides on the calendar source: offered only when that one is, and
  // only with a meeting provider connected (Google Meet or Teams, as the calendar service's meeting port says).
  const booking = options.booking && offered.includes(CUSTOMER_SOURCES.calendar) && (await usable.check(bookingSource, context));
  return booking ? [...tools, ...bookingSource.tools] : tools;
}
