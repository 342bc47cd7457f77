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

/**
 * The tools of the configured sources whose service answers that they are usable for this user, asked in
 * parallel. A sibling that is not mounted, answers 404/503 or is not connected is simply not offered.
 */
export async function offeredTools(
  configured: readonly InternalSource[],
  context: ToolContext,
  options: { booking: boolean },
): Promise<AssistantTool[]> {
  const sources = configured.map((name) => SOURCES[name]);
  const usable = await Promise.all(sources.map((source) => source.isAvailable(context).catch(() => false)));
  const offered = sources.filter((_, i) => usable[i]);
  // Booking rides on the calendar source: offered only when that one is.
  const tools = offered.flatMap((source) => source.tools);
  return options.booking && offered.includes(calendarSource) ? [...tools, ...bookingSource.tools] : tools;
}
