import { AppError } from '@asistente/kit';
import type { EventBody } from '@asistente/contracts';
import type { Range } from '../dates.js';
import { calendarNotFound } from '../provider-errors.js';
import { jsonView, type JsonView } from '../view-cache.js';
import type { AgendaEvent, BusyTime, CalendarPort, CalendarProviderName, ProviderEvent, WrittenEvent } from './calendar-port.js';

/** An event just written, with the name of the provider that holds it. */
export type WrittenAgendaEvent = WrittenEvent & { event: AgendaEvent };

/** An error that only says "this user has no usable calendar here" (see absentCodes). */
const isAbsent = (source: CalendarPort, error: unknown) => error instanceof AppError && source.absentCodes?.has(error.code) === true;

const startOf = (e: ProviderEvent) => Date.parse(e.startDate.length === 10 ? `${e.startDate}T00:00:00Z` : e.startDate);
const byStart = (a: ProviderEvent, b: ProviderEvent) => startOf(a) - startOf(b) || a.id.localeCompare(b.id);

/**
 * The registered calendar providers, in order. The first (Google) is asked for the agenda whatever it says of
 * being connected, so a user who connected nothing hears what to connect; it also takes a new event without a
 * calendar when connected. A calendar id goes to the provider that owns it; one that no provider owns is a 404.
 */
export class CalendarRegistry {
  private readonly providers: readonly CalendarPort[];

  constructor(first: CalendarPort, ...others: CalendarPort[]) {
    this.providers = [first, ...others];
    const names = this.providers.map((p) => p.name);
    const twice = names.find((name, i) => names.indexOf(name) !== i);
    if (twice !== undefined) throw new Error(`calendar provider ${twice} registered twice`);
  }

  /** The events of the range: of one calendar, of one provider (`only`), or merged across the connected ones. */
  async range(userId: string, range: Range, force: boolean, calendarId?: string, only?: CalendarProviderName): Promise<JsonView> {
    const named = only === undefined ? undefined : this.providers.find((p) => p.name === only);
    if (only !== undefined && !named) return jsonView('[]');
    if (named || calendarId) {
      const owner = named ?? (await this.owner(userId, calendarId!));
      return owner.view ? owner.view(userId, range, force, calendarId) : this.json(owner, await owner.events(userId, range, force, calendarId));
    }
    const first = this.providers[0]!;
    const others = await this.connectedOthers(userId);
    // Nothing else connected: the first provider's own answer, errors and cached view included.
    if (others.length === 0) return first.view ? first.view(userId, range, force) : this.json(first, await first.events(userId, range, force));
    const lists = await this.across(first, others, async (p) => stamp(p, await p.events(userId, range, force)));
    return jsonView(JSON.stringify(lists.flat().sort(byStart)));
  }

  /** Busy times across the providers (free slots): as `range`, the first alone unless others are connected. */
  async busy(userId: string, range: Range): Promise<BusyTime[]> {
    const lists = await this.acrossConnected(userId, (p) => p.busy(userId, range));
    return lists.flat();
  }

  /** The providers the user surely has connected, in order. */
  async connected(userId: string): Promise<CalendarProviderName[]> {
    const confirmed = await Promise.all(this.providers.map((p) => (p.confirmed ?? p.connected).call(p, userId)));
    return this.providers.filter((_, i) => confirmed[i]).map((p) => p.name);
  }

  /** The events of the range, of every connected provider, that list exactly this address among their attendees. */
  async withAttendee(userId: string, range: Range, attendee: string): Promise<AgendaEvent[]> {
    const address = attendee.trim().toLowerCase();
    const lists = await this.acrossConnected(userId, async (p) =>
      stamp(p, (await p.events(userId, range, false)).filter((e) => e.attendees.some((a) => a.trim().toLowerCase() === address))),
    );
    return lists.flat().sort(byStart);
  }

  /**
   * A new event in the calendar named, or without one in the default calendar of the first provider the user
   * has connected (Google's 'primary' when Google is). One that turns out absent (teams not there) passes to
   * the next; with none connected, the first provider says what to connect.
   */
  async create(userId: string, calendarId: string | undefined, body: EventBody): Promise<WrittenAgendaEvent> {
    if (calendarId !== undefined) return written(await this.owner(userId, calendarId), (p) => p.create(userId, calendarId, body));
    const connected = await this.connected(userId);
    for (const provider of this.providers.filter((p) => connected.includes(p.name))) {
      try {
        return await written(provider, (p) => p.create(userId, undefined, body));
      } catch (error) {
        if (!isAbsent(provider, error)) throw error;
      }
    }
    return written(this.providers[0]!, (p) => p.create(userId, undefined, body));
  }

  async update(userId: string, calendarId: string, eventId: string, body: EventBody): Promise<WrittenAgendaEvent> {
    return written(await this.owner(userId, calendarId), (p) => p.update(userId, calendarId, eventId, body));
  }

  async delete(userId: string, calendarId: string, eventId: string): Promise<void> {
    return (await this.owner(userId, calendarId)).delete(userId, calendarId, eventId);
  }

  private async connectedOthers(userId: string): Promise<CalendarPort[]> {
    const others = this.providers.slice(1);
    return (await Promise.all(others.map(async (p) => ((await p.connected(userId)) ? p : undefined)))).filter((p) => p !== undefined);
  }

  /**
   * `read` of the first provider and of every other connected one. With others connected, a first provider that
   * only says "not connected here" counts as empty; alone, its answer (or error) is the answer.
   */
  private async acrossConnected<T>(userId: string, read: (provider: CalendarPort) => Promise<T[]>): Promise<T[][]> {
    const first = this.providers[0]!;
    const others = await this.connectedOthers(userId);
    if (others.length === 0) return [await read(first)];
    return this.across(first, others, read);
  }

  /**
   * `read` of each provider asked. One that says it is absent (its absentCodes), or fails where it is only best
   * effort, adds nothing; any other failure is the answer. When nobody answered, the first provider's error is.
   */
  private async across<T>(first: CalendarPort, others: CalendarPort[], read: (provider: CalendarPort) => Promise<T[]>): Promise<T[][]> {
    const asked = [first, ...others];
    const results = await Promise.all(asked.map((p) => read(p).then((value) => ({ value }), (error: unknown) => ({ error }))));
    const lists: T[][] = [];
    results.forEach((result, i) => {
      const provider = asked[i]!;
      if ('value' in result) return lists.push(result.value);
      const absent = isAbsent(provider, result.error);
      if (!absent && !provider.bestEffort) throw result.error;
      if (!absent) provider.bestEffort?.(result.error);
      return undefined;
    });
    const firstResult = results[0]!;
    if (lists.length === 0 && 'error' in firstResult) throw firstResult.error;
    return lists;
  }

  /**
   * The provider holding the calendar id, the first in order among those that say they own it (asked together).
   * None: a 404 in Spanish, never a guess; unless a provider could not tell, whose failure is then the answer.
   */
  private async owner(userId: string, calendarId: string): Promise<CalendarPort> {
    const answers = await Promise.all(this.providers.map((p) => p.owns(userId, calendarId).then((owns) => ({ owns }), (error: unknown) => ({ error }))));
    const index = answers.findIndex((a) => 'owns' in a && a.owns);
    if (index >= 0) return this.providers[index]!;
    const failed = answers.find((a) => 'error' in a);
    if (failed && 'error' in failed) throw failed.error;
    throw calendarNotFound();
  }

  private json(provider: CalendarPort, events: ProviderEvent[]): JsonView {
    return jsonView(JSON.stringify(stamp(provider, events)));
  }
}

/** The provider's events, each saying whose it is. */
const stamp = (provider: CalendarPort, events: ProviderEvent[]): AgendaEvent[] => events.map((e) => ({ ...e, source: provider.name }));

async function written(provider: CalendarPort, write: (provider: CalendarPort) => Promise<WrittenEvent>): Promise<WrittenAgendaEvent> {
  const answer = await write(provider);
  return { ...answer, event: { ...answer.event, source: provider.name } };
}
