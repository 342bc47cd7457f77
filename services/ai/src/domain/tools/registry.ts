import type { InternalSource } from '@asistente/contracts';
import { bookingSource, calendarSource } from './calendar.tools.js';
import { contactsSource } from './contacts.tools.js';
import { emailsSource } from './emails.tools.js';
import type { AssistantTool, ToolContext, ToolSource } from './tool.js';
import { whatsappSource } from './whatsapp.tools.js';

const SOURCES: Record<InternalSource, ToolSource> = {
  contacts: contactsSource,
  whatsapp: whatsappSource,
  emails: emailsSource,
  calendar: calendarSource,
};

/** How long a source that answered "usable" is taken at its word before it is asked again. */
const USABLE_TTL_MS = 30_000;

/**
 * Remembers, per user and source, that the source answered usable, for USABLE_TTL_MS. Only the positive
 * answer is kept: a source the owner just connected is offered on the next run, and one that went away
 * meanwhile only makes a tool call answer an error the model can read.
 */
export class UsableSources {
  private readonly seen = new Map<string, number>();

  async check(source: ToolSource, context: ToolContext): Promise<boolean> {
    const key = `${context.userId}/${source.name}`;
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
  const sources = configured.map((name) => SOURCES[name]);
  const answers = await Promise.all(sources.map((source) => usable.check(source, context)));
  const offered = sources.filter((_, i) => answers[i]);
  // Booking rides on the calendar source: offered only when that one is.
  const tools = offered.flatMap((source) => source.tools);
  return options.booking && offered.includes(calendarSource) ? [...tools, ...bookingSource.tools] : tools;
}
